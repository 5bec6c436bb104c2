import type { RouteHandle } from '../../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: 'Accessibility Statement', description: 'Accessibility Statement — placeholder.', path: '/accessibility' }),
};

export function Component() {
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-bold">Accessibility Statement</h1>
    </main>
  );
}
