import type { RouteHandle } from '../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: 'Online Notary Services', description: 'Online Notary Services — placeholder.', path: '/' }),
};

export function Component() {
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-bold">Online Notary Services</h1>
    </main>
  );
}
