import type { RouteHandle } from '../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: 'Business Solutions', description: 'Business Solutions — placeholder.', path: '/business-solutions' }),
};

export function Component() {
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-bold">Business Solutions</h1>
    </main>
  );
}
