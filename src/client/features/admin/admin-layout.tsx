import type { ReactNode } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { Toaster } from '../../components/ui/toast.tsx';
import { cn } from '../../lib/cn.ts';
import { trpc } from '../../lib/trpc.ts';
import { consolePages, homePathFor, staffRoleLabels, type ConsolePage, type StaffRole } from '../../../shared/staff.ts';
import { useStaff } from './use-staff.tsx';

const navItems: { page: ConsolePage; label: string }[] = [
  { page: 'bookings', label: 'Bookings' },
  { page: 'appointments', label: 'My appointments' },
  { page: 'chat', label: 'Chat' },
  { page: 'messages', label: 'Messages' },
  { page: 'mail', label: 'Mail' },
  { page: 'staff', label: 'Staff' },
  { page: 'account', label: 'Account' },
];

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
  if (!staff) return <Navigate to={`/admin/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  if (staff.twoFactor !== 'ok') return <Navigate to="/admin/two-factor" replace />;

  const signOut = async () => {
    await logout.mutateAsync().catch(() => undefined);
    await refresh();
    navigate('/admin/login');
  };

  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <a href="#main" className="sr-only z-[100] rounded bg-white px-4 py-2 font-semibold text-blue-800 focus:not-sr-only focus:fixed focus:left-4 focus:top-4">
        Skip to main content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <p className="font-bold text-blue-800">NotaryOnline Staff</p>
          <nav aria-label="Console" className="flex-1">
            <ul className="flex flex-wrap gap-1">
              {navItems
                .filter((item) => canOpen(staff.user.role, item.page))
                .map((item) => (
                  <li key={item.page}>
                    <NavLink
                      to={`/admin/${item.page}`}
                      className={({ isActive }) =>
                        cn(
                          'inline-flex h-10 items-center rounded-md px-3 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700',
                          isActive && 'bg-blue-50 text-blue-900',
                        )
                      }
                    >
                      {item.label}
                    </NavLink>
                  </li>
                ))}
            </ul>
          </nav>
          <p className="text-sm text-slate-700">
            {staff.user.name || staff.user.email} · {staffRoleLabels[staff.user.role]}
          </p>
          <Button variant="outline" size="sm" onClick={signOut}>
            Sign out
          </Button>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-8">
        <Outlet />
      </main>
      <Toaster />
    </div>
  );
}

/** A page outside the role sends the user to their own start page (the server refuses the data anyway). */
export function RequireRole({ page, children }: { page: ConsolePage; children: ReactNode }) {
  const { staff } = useStaff();
  if (!staff) return null;
  if (!canOpen(staff.user.role, page)) return <Navigate to={homePathFor(staff.user.role)} replace />;
  return <>{children}</>;
}

export function ConsoleHome() {
  const { staff } = useStaff();
  return staff ? <Navigate to={homePathFor(staff.user.role)} replace /> : null;
}

export function ConsoleLoading() {
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-50">
      <h1 className="text-lg text-slate-700">Loading the staff console…</h1>
    </main>
  );
}
