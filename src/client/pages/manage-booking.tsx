import type { RouteHandle } from '../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: 'Your Booking', description: 'Your Booking — placeholder.', path: '/booking' }),
};

export function Component() {
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-bold">Your Booking</h1>
    </main>
  );
}
