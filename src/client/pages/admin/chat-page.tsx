// Placeholder until the live-chat work replaces it (owner: chat helper).
import { UpcomingBookings } from '../../features/admin/upcoming-bookings.tsx';
import { PageHeading } from '../../features/admin/page-heading.tsx';

export function Component() {
  return (
    <>
      <PageHeading title="Chat" />
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <p className="text-slate-700">Live chat is not available yet.</p>
        <UpcomingBookings />
      </div>
    </>
  );
}
