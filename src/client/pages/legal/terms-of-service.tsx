import type { RouteHandle } from '../../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: 'Terms of Service', description: 'Terms of Service — placeholder.', path: '/terms-of-service' }),
};

export function Component() {
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-bold">Terms of Service</h1>
    </main>
  );
}
