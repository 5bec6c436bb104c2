import { Bell, BellOff } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Redirect } from '../../lib/router-hooks.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { trpc } from '../../lib/trpc.ts';
import { SetHoursNotice } from './hours-notice.tsx';
import { WaitingCustomers } from './waiting-customers.tsx';
import { consolePages, homePathFor, staffRoleLabels, type ConsolePage, type StaffRole } from '../../../shared/staff.ts';
import type { StaffChatState } from '../chat/staff-chat.ts';
import { Store } from '../chat/store.ts';
import { useStore } from '../chat/use-store.ts';
import { alertsEnabled, ConsoleChatProvider, setAlerts, setAwayEverywhere, useConsoleChat, useUnreadTotal } from './console-chat.tsx';
import { useStaff } from './use-staff.tsx';

const navItems: { page: ConsolePage; label: string }[] = [
  { page: 'bookings', label: 'Bookings' },
  { page: 'appointments', label: 'My appointments' },
  { page: 'chat', label: 'Chat' },
  { page: 'messages', label: 'Messages' },
  { page: 'mail', label: 'Mail' },
  { page: 'staff', label: 'Staff' },
  { page: 'journal', label: 'Journal' },
  { page: 'hours', label: 'Working hours' },
  { page: 'account', label: 'Account' },
];

/** Appointments newly assigned to this notary and not opened yet. */
function NewAppointmentsBadge() {
  const count = trpc.console.newAppointments.useQuery(undefined, { refetchInterval: 60_000 }).data ?? 0;
  if (count === 0) return null;
  return (
    <span className="ml-2 rounded-full bg-blue-700 px-2 py-0.5 text-xs font-semibold text-white" data-testid="new-appointments">
      {count}
      <span className="sr-only"> new</span>
    </span>
  );
}

export function canOpen(role: StaffRole, page: ConsolePage): boolean {
  return (consolePages[page] as readonly StaffRole[]).includes(role);
}

/** The signed-in console: navigation, sign-out, the page. Anonymous → login. */
export function AdminLayout() {
  const { staff, loading, refresh } = useStaff();
  const location = useLocation();
  const navigate = useNavigate();
  const logout = trpc.staff.logout.useMutation();

  if (loading) return <ConsoleLoading />;
  if (!staff) return <Redirect to={`/admin/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  if (staff.twoFactor !== 'ok') return <Redirect to="/admin/two-factor" replace />;

  const signOut = async () => {
    await logout.mutateAsync().catch(() => undefined);
    await refresh();
    navigate('/admin/login');
  };

  const answersChat = canOpen(staff.user.role, 'chat');
  return (
    <ConsoleChatProvider enabled={answersChat}>
      <div className="flex min-h-screen flex-col bg-slate-50">
        <a href="#main" className="sr-only z-[100] rounded bg-white px-4 py-2 font-semibold text-blue-800 focus:not-sr-only focus:fixed focus:left-4 focus:top-4">
          Skip to main content
        </a>
        {/* Phones: brand, presence and sign-out on one row, the pages on a second row that scrolls within itself. */}
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-2 gap-y-2 px-4 py-3 md:flex-nowrap md:gap-x-4">
            <p className="mr-auto text-sm font-bold text-blue-800 sm:text-base md:mr-0">
              NotaryOnline<span className="hidden sm:inline"> Staff</span>
            </p>
            <nav aria-label="Console" className="relative order-last -mx-4 w-[calc(100%+2rem)] overflow-x-auto px-4 md:order-none md:mx-0 md:w-auto md:flex-1">
              <ul className="flex gap-1">
                {navItems
                  .filter((item) => canOpen(staff.user.role, item.page))
                  .map((item) => (
                    <li key={item.page} className="shrink-0">
                      <NavLink
                        to={`/admin/${item.page}`}
                        className={({ isActive }) =>
                          cn(
                            'inline-flex h-10 items-center gap-1.5 whitespace-nowrap rounded-md px-3 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-700',
                            isActive && 'bg-blue-50 text-blue-900',
                          )
                        }
                      >
                        {item.label}
                        {item.page === 'chat' && <UnreadBadge />}
                        {item.page === 'appointments' && staff.user.role === 'notary' && <NewAppointmentsBadge />}
                      </NavLink>
                    </li>
                  ))}
              </ul>
            </nav>
            <p className="hidden text-sm text-slate-700 lg:block">
              {staff.user.name || staff.user.email} · {staffRoleLabels[staff.user.role]}
            </p>
            {answersChat && <PresenceControls />}
            <Button variant="outline" size="sm" onClick={signOut}>
              Sign out
            </Button>
          </div>
        </header>
        <main id="main" className="mx-auto w-full min-w-0 max-w-7xl flex-1 px-4 py-6 md:py-8">
          {staff.user.role === 'admin' && <SetHoursNotice />}
          {staff.user.role === 'notary' && <WaitingCustomers />}
          <Outlet />
        </main>
      </div>
    </ConsoleChatProvider>
  );
}

/** The unread visitor messages, beside "Chat" on every console page. */
function UnreadBadge() {
  const unread = useUnreadTotal(useConsoleChat());
  if (unread === 0) return null;
  return (
    <span className="rounded-full bg-blue-700 px-2 text-xs font-semibold text-white" data-testid="chat-unread">
      {unread}
      <span className="sr-only"> unread {unread === 1 ? 'message' : 'messages'}</span>
    </span>
  );
}

/** Available / Away for chat (visitors see "online" while anyone is Available), and the optional alerts. */
function PresenceControls() {
  const chat = useConsoleChat();
  const state = useStore<Pick<StaffChatState, 'away'>>(chat?.store ?? idleChatStore);
  const [alerts, setAlertsState] = useState(false);
  useEffect(() => setAlertsState(alertsEnabled()), []);
  const available = !state.away;
  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        role="switch"
        aria-checked={available}
        disabled={!chat}
        onClick={() => chat && setAwayEverywhere(chat, available)}
        className={cn(
          'inline-flex h-9 items-center gap-1.5 rounded-full border px-2.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:opacity-60',
          available ? 'border-green-600 bg-green-50 text-green-900' : 'border-slate-300 bg-slate-100 text-slate-800',
        )}
      >
        <span aria-hidden="true" className={cn('h-2.5 w-2.5 rounded-full', available ? 'bg-green-600' : 'bg-slate-500')} />
        <span className="sr-only">Chat availability: </span>
        {available ? 'Available' : 'Away'}
      </button>
      <button
        type="button"
        role="switch"
        aria-checked={alerts}
        title="Sound and desktop notification for new chat messages"
        onClick={() => {
          const next = !alerts;
          setAlertsState(next);
          void setAlerts(next);
        }}
        className="inline-flex h-9 w-9 items-center justify-center rounded-full border border-slate-300 text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 aria-checked:border-blue-700 aria-checked:bg-blue-50 aria-checked:text-blue-900"
      >
        {alerts ? <Bell className="h-4 w-4" aria-hidden="true" /> : <BellOff className="h-4 w-4" aria-hidden="true" />}
        <span className="sr-only">Chat alerts</span>
      </button>
    </div>
  );
}
const idleChatStore = new Store<Pick<StaffChatState, 'away'>>({ away: false });

/** A page outside the role sends the user to their own start page (the server refuses the data anyway). */
export function RequireRole({ page, children }: { page: ConsolePage; children: ReactNode }) {
  const { staff } = useStaff();
  if (!staff) return null;
  if (!canOpen(staff.user.role, page)) return <Redirect to={homePathFor(staff.user.role)} replace />;
  return <>{children}</>;
}

export function ConsoleHome() {
  const { staff } = useStaff();
  return staff ? <Redirect to={homePathFor(staff.user.role)} replace /> : null;
}

export function ConsoleLoading() {
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-50">
      <h1 className="text-lg text-slate-700">Loading the staff console…</h1>
    </main>
  );
}
