/**
 * Pages that hydrate as their server HTML (docs/decisions/051-marketing-pages-as-server-html.md).
 *
 * On a first load of one of these routes the browser does not download the
 * page's code: the root layout keeps the server's HTML of the page as it is
 * (header, footer and chat button hydrate as usual), its links navigate through
 * the router, native elements (`<details>`, forms, anchors) work as HTML, and
 * the few interactive parts are islands hydrated when they come near the
 * viewport (`data-island`, see components/layout/page-outlet.tsx). A client-side navigation
 * to such a page loads and renders its module as for any other route.
 *
 * Keyed by the route's full path as `src/build/route-chunks.ts` reads it from
 * routes.tsx, so the build leaves their chunks out of the page's preloads and the
 * bench out of their first load. Only pages whose every interaction works this
 * way belong here. Fade-ins (`data-reveal`), buttons that scroll to a section
 * (`data-scroll-to`) and the home page's arrival at "/#section" (`data-scroll-on-arrival`)
 * are done over the HTML by page-outlet.tsx (docs/product.md §3.3).
 */
export const serverHtmlRoutes: ReadonlySet<string> = new Set([
  '/',
  '/business-solutions',
  '/remote-notarization',
  '/electronic-signatures',
  '/identity-verification',
  '/document-management',
  '/blog',
  '/blog/:slug',
  '/terms-of-service',
  '/privacy-policy',
  '/cookie-policy',
  '/esign-consent',
  '/accessibility',
  '/sitemap',
  '/verify',
]);

/** An island's server-rendered container: `<div data-island="name" data-props="{…}">`. */
export function islandProps(name: string, props: object): { 'data-island': string; 'data-props': string } {
  return { 'data-island': name, 'data-props': JSON.stringify(props) };
}
