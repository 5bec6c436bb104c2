import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, data, StaticRouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { RouteError } from './route-error.tsx';

/** docs/product.md §3.7: the router's fallback screen, rendered as the server renders pages. */
async function renderWithLoader(loader: () => unknown): Promise<string> {
  const routes = [{ path: '/', loader, element: <p>never shown</p>, errorElement: <RouteError /> }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/'));
  if (context instanceof Response) throw new Error('unexpected redirect');
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

describe('RouteError', () => {
  it("shows 'Unexpected Application Error!' with the error's message", async () => {
    const html = await renderWithLoader(() => {
      throw new Error('The article index could not be read');
    });
    expect(html).toContain('Unexpected Application Error!');
    expect(html).toContain('The article index could not be read');
  });

  it('shows the status and its text for an error response', async () => {
    const html = await renderWithLoader(() => {
      throw data(null, { status: 503, statusText: 'Service Unavailable' });
    });
    expect(html).toContain('Unexpected Application Error!');
    expect(html).toContain('503 Service Unavailable');
  });

  it('shows the Not Found page for a 404', async () => {
    const html = await renderWithLoader(() => {
      throw data(null, { status: 404, statusText: 'Not Found' });
    });
    expect(html).toContain('Page Not Found');
    expect(html).toContain('Return to Home');
    expect(html).not.toContain('Unexpected Application Error!');
  });
});
