import { BookingWizard } from '../features/booking/booking-wizard.tsx';
import type { RouteHandle } from '../lib/meta.ts';
import { TrpcProvider } from '../lib/trpc-provider.tsx';

export const handle: RouteHandle = {
  meta: () => ({
    title: 'Schedule a Notary',
    description:
      'Book an online notary session in minutes: upload your documents, pick a time that suits you, and pay $25.00 for the whole session.',
    path: '/schedule',
  }),
};

/** /schedule — the booking wizard, also Stripe's return address (?booking=<id>). */
export function Component() {
  return (
    <main id="main" className="mx-auto w-full max-w-5xl px-4 py-10 md:py-16">
      <h1 className="mb-2 text-3xl font-bold text-slate-900 md:text-4xl">Schedule a Notary</h1>
      <p className="mb-8 text-slate-700">
        Upload your documents, choose a time — or Notarize now with the next notary on duty — and pay securely. It takes about five minutes.
      </p>
      <TrpcProvider>
        <BookingWizard />
      </TrpcProvider>
    </main>
  );
}
