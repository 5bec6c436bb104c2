import { useParams } from 'react-router-dom';
import { ManageBooking } from '../features/manage-booking/manage-booking.tsx';
import type { RouteHandle } from '../lib/meta.ts';
import { TrpcProvider } from '../lib/trpc-provider.tsx';

export const handle: RouteHandle = {
  // The token never goes into the canonical URL, and the page is never indexed.
  meta: () => ({ title: 'Your Booking', description: 'View, reschedule or cancel your online notary appointment.', path: '/booking', noindex: true }),
};

/** /booking/:token — the private page behind the email's manage link (no account needed). */
export function Component() {
  const { token = '' } = useParams();
  return (
    <main id="main" className="mx-auto w-full max-w-3xl px-4 py-10 md:py-16">
      <h1 className="mb-8 text-3xl font-bold text-slate-900 md:text-4xl">Your Booking</h1>
      <TrpcProvider>
        <ManageBooking token={token} />
      </TrpcProvider>
    </main>
  );
}
