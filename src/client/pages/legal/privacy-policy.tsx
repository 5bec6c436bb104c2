import type { RouteHandle } from '../../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: 'Privacy Policy', description: 'Privacy Policy — placeholder.', path: '/privacy-policy' }),
};

export function Component() {
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-bold">Privacy Policy</h1>
    </main>
  );
}
