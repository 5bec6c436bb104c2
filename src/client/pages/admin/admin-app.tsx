import { JournalPage } from '../../features/admin/journal-page.tsx';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, Route, Routes } from 'react-router-dom';
import type { RouteHandle } from '../../lib/meta.ts';
import { TrpcProvider } from '../../lib/trpc-provider.tsx';
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
        <Routes>
          <Route element={<AdminLayout />}>
            <Route index element={<ConsoleHome />} />
            <Route path="bookings" element={<RequireRole page="bookings"><BookingsPage /></RequireRole>} />
            <Route path="bookings/:bookingId" element={<RequireRole page="bookings"><BookingDetailPage /></RequireRole>} />
            <Route path="appointments" element={<RequireRole page="appointments"><AppointmentsPage /></RequireRole>} />
            <Route path="appointments/:bookingId" element={<RequireRole page="appointments"><BookingDetailPage /></RequireRole>} />
            <Route
              path="appointments/:bookingId/session"
              element={
                <RequireRole page="appointments">
                  <Suspense fallback={<p>Loading session…</p>}>
                    <NotarySessionPage />
                  </Suspense>
                </RequireRole>
              }
            />
            <Route
              path="chat"
              element={
                <RequireRole page="chat">
                  <Suspense fallback={<p>Loading chat…</p>}>
                    <ChatPage />
                  </Suspense>
                </RequireRole>
              }
            />
            <Route path="messages" element={<RequireRole page="messages"><MessagesPage /></RequireRole>} />
            <Route path="mail" element={<RequireRole page="mail"><MailPage /></RequireRole>} />
            <Route path="mail/:messageId" element={<RequireRole page="mail"><MailDetailPage /></RequireRole>} />
            <Route path="staff" element={<RequireRole page="staff"><StaffPage /></RequireRole>} />
            <Route path="journal" element={<RequireRole page="journal"><JournalPage /></RequireRole>} />
            <Route path="account" element={<RequireRole page="account"><AccountPage /></RequireRole>} />
            <Route path="*" element={<ConsoleNotFound />} />
          </Route>
        </Routes>
      </StaffProvider>
    </TrpcProvider>
  );
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
