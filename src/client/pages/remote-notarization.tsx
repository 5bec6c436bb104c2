import type { RouteHandle } from '../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: 'Remote Online Notarization', description: 'Remote Online Notarization — placeholder.', path: '/remote-notarization' }),
};

export function Component() {
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-bold">Remote Online Notarization</h1>
    </main>
  );
}
