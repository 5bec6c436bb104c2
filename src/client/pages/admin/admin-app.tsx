import { JournalPage } from '../../features/admin/journal-page.tsx';
import { HoursPage } from '../../features/admin/hours-page.tsx';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useRoutes } from 'react-router-dom';
import type { RouteHandle } from '../../lib/meta.ts';
import { TrpcProvider } from '../../lib/trpc-provider.tsx';
import type { ConsolePage } from '../../../shared/staff.ts';
import { AccountPage } from '../../features/admin/account-page.tsx';
import { AdminLayout, ConsoleHome, ConsoleLoading, RequireRole } from '../../features/admin/admin-layout.tsx';
import { AppointmentsPage } from '../../features/admin/appointments-page.tsx';
import { BookingDetailPage } from '../../features/admin/booking-detail-page.tsx';
import { BookingsPage } from '../../features/admin/bookings-page.tsx';
import { MailDetailPage, MailPage } from '../../features/admin/mail-page.tsx';
import { MessagesPage } from '../../features/admin/messages-page.tsx';
import { PageHeading } from '../../features/admin/page-heading.tsx';
import { StaffPage } from '../../features/admin/staff-page.tsx';
import { StaffProvider } from '../../features/admin/use-staff.tsx';

/** The live chat is its own chunk: only staff who open it download Socket.IO. */
const ChatPage = lazy(() => import('./chat-page.tsx').then((m) => ({ default: m.Component })));
/** The session room too: WebRTC, Socket.IO and pdf.js only for a notary entering a session. */
const NotarySessionPage = lazy(() => import('../../features/session-room/notary-session-page.tsx').then((m) => ({ default: m.NotarySessionPage })));

export const handle: RouteHandle = {
  meta: () => ({ title: 'Staff Console', description: 'NotaryOnline staff console.', path: '/admin', noindex: true }),
};

/**
 * Everything under /admin. The server sends only a shell (the data needs the
 * staff session, checked by every procedure; the server's page guard already
 * redirected anonymous visitors); the console itself renders in the browser.
 */
export function Component() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  // Same markup on the server and the first client render, so hydration matches.
  if (!mounted) return <ConsoleLoading />;
  return (
    <TrpcProvider>
      <StaffProvider>
        <ConsoleRoutes />
      </StaffProvider>
    </TrpcProvider>
  );
}

/**
 * The console's pages, as route objects: `<Routes>`/`<Route>` would add react-router's
 * element-to-route conversion to the shared chunk on every first load (docs/decisions/051).
 */
/** A console page whose code loads on first visit, behind the role check. */
function lazyPage(page: ConsolePage, loading: string, element: ReactNode) {
  return (
    <RequireRole page={page}>
      <Suspense fallback={<p>{loading}</p>}>{element}</Suspense>
    </RequireRole>
  );
}

function ConsoleRoutes() {
  return useRoutes([
    {
      element: <AdminLayout />,
      children: [
        { index: true, element: <ConsoleHome /> },
        { path: 'bookings', element: <RequireRole page="bookings"><BookingsPage /></RequireRole> },
        { path: 'bookings/:bookingId', element: <RequireRole page="bookings"><BookingDetailPage /></RequireRole> },
        { path: 'appointments', element: <RequireRole page="appointments"><AppointmentsPage /></RequireRole> },
        { path: 'appointments/:bookingId', element: <RequireRole page="appointments"><BookingDetailPage /></RequireRole> },
        {
          path: 'appointments/:bookingId/session',
          element: lazyPage('appointments', 'Loading session…', <NotarySessionPage />),
        },
        {
          path: 'chat',
          element: lazyPage('chat', 'Loading chat…', <ChatPage />),
        },
        { path: 'messages', element: <RequireRole page="messages"><MessagesPage /></RequireRole> },
        { path: 'mail', element: <RequireRole page="mail"><MailPage /></RequireRole> },
        { path: 'mail/:messageId', element: <RequireRole page="mail"><MailDetailPage /></RequireRole> },
        { path: 'staff', element: <RequireRole page="staff"><StaffPage /></RequireRole> },
        { path: 'journal', element: <RequireRole page="journal"><JournalPage /></RequireRole> },
        { path: 'hours', element: <RequireRole page="hours"><HoursPage /></RequireRole> },
        { path: 'account', element: <RequireRole page="account"><AccountPage /></RequireRole> },
        { path: '*', element: <ConsoleNotFound /> },
      ],
    },
  ]);
}

function ConsoleNotFound() {
  return (
    <>
      <PageHeading title="Page not found" />
      <Link to="/admin" className="text-blue-700 underline">
        Back to the console
      </Link>
    </>
  );
}
