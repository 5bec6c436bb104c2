import { lazy, Suspense, useCallback, useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Redirect, useSearchParams } from '../../lib/router-hooks.tsx';
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { fieldClass } from '../../components/ui/field-class.ts';
import { rpc, RpcError, type Outputs } from '../../lib/rpc.ts';
import { homePathFor, staffRoleLabels } from '../../../shared/staff-roles.ts';
import type { StaffSession } from './use-staff.tsx';
// Only the two-factor set-up needs it: kept out of the sign-in page's first load (decision 040).
const TotpEnrolment = lazy(() => import('./totp-enrolment.tsx').then((module) => ({ default: module.TotpEnrolment })));

/*
 * Signing in, the second factor and accepting an invitation: the console's
 * open pages. They load before anyone has signed in, so they stay light —
 * plain fetch calls (lib/rpc.ts), plain inputs and labels — and the console
 * itself (tRPC client, React Query, Zod) loads after sign-in. See
 * docs/decisions/040-first-load-budgets.md.
 */

const inputClass = `${fieldClass} h-11`;
const labelClass = 'text-sm font-medium text-slate-800';
const submitClass = buttonVariants();
const linkButtonClass = `${buttonVariants({ variant: 'link', size: 'inline' })} mt-4`;

/** The server's message for a refusal it explained (as lib/errors.ts does for the full client); otherwise the generic one. */
function errorMessage(error: unknown): string {
  if (!(error instanceof RpcError)) return 'An unexpected error occurred';
  // Refused input is explained per field; the raw message would be a serialized issue list.
  const firstFieldMessage = Object.values(error.fieldErrors).find((messages) => messages?.length)?.[0];
  if (firstFieldMessage) return firstFieldMessage;
  // A serialized issue list is never shown; a sentence the server wrote is.
  if (!error.message || /^\s*[[{]/.test(error.message)) return error.code === 'BAD_REQUEST' ? 'Please check the form and try again.' : 'An unexpected error occurred';
  return error.message;
}

/** Minimum length of a staff password: the server's rule (shared/staff.ts), repeated here to keep Zod off this light page. */
const minPasswordLength = 12;
const shortPasswordMessage = 'Use at least 12 characters for the password.';

/** Who is signed in (`staff.me`), read once the page is in the browser. */
function useStaffSession() {
  const [state, setState] = useState<{ staff: StaffSession | null; loading: boolean }>({ staff: null, loading: true });
  const refresh = useCallback(async () => {
    const staff = (await rpc.query<Outputs['staff']['me']>('staff.me')) as StaffSession | null;
    setState({ staff, loading: false });
    return staff;
  }, []);
  useEffect(() => {
    refresh().catch(() => setState({ staff: null, loading: false }));
  }, [refresh]);
  return { ...state, refresh };
}

/** A mutation's pending flag around an async call. */
function usePending(): [boolean, <T>(run: () => Promise<T>) => Promise<T>] {
  const [pending, setPending] = useState(false);
  const track = useCallback(async <T,>(run: () => Promise<T>) => {
    setPending(true);
    try {
      return await run();
    } finally {
      setPending(false);
    }
  }, []);
  return [pending, track];
}

function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="flex min-h-screen items-start justify-center bg-slate-50 px-4 py-16">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <p className="text-sm font-semibold text-blue-800">NotaryOnline Staff Console</p>
        <h1 className="mt-1 text-2xl font-bold text-slate-900">{title}</h1>
        <div className="mt-6">{children}</div>
      </div>
    </main>
  );
}

function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  );
}

/** Only console paths are followed after sign-in (no open redirect). */
function safeNext(next: string | null): string | null {
  return next && /^\/admin(\/|$)/.test(next) && !next.startsWith('//') ? next : null;
}

export function LoginPage() {
  const { staff, refresh } = useStaffSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [pending, track] = usePending();
  const ids = { email: useId(), password: useId() };

  if (staff?.twoFactor === 'ok' && !pending) return <Redirect to={safeNext(params.get('next')) ?? homePathFor(staff.user.role)} replace />;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const form = new FormData(event.currentTarget);
    try {
      const result = await track(async () => {
        const signedIn = await rpc.mutation<Outputs['staff']['login']>('staff.login', { email: String(form.get('email')), password: String(form.get('password')) });
        await refresh();
        return signedIn;
      });
      if (result.twoFactor !== 'ok') navigate(`/admin/two-factor${params.get('next') ? `?next=${encodeURIComponent(params.get('next')!)}` : ''}`);
      else navigate(safeNext(params.get('next')) ?? homePathFor(result.role));
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  return (
    <AuthCard title="Sign in">
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormError message={error} />
        <div className="grid gap-1.5">
          <label htmlFor={ids.email} className={labelClass}>
            Email
          </label>
          <input id={ids.email} name="email" type="email" autoComplete="username" required className={inputClass} />
        </div>
        <div className="grid gap-1.5">
          <label htmlFor={ids.password} className={labelClass}>
            Password
          </label>
          <input id={ids.password} name="password" type="password" autoComplete="current-password" required className={inputClass} />
        </div>
        <button type="submit" disabled={pending} className={submitClass}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </AuthCard>
  );
}

function CodeForm({ onCode, pending, label }: { onCode: (code: string) => Promise<void>; pending: boolean; label: string }) {
  const [error, setError] = useState<string | null>(null);
  // A wrong or malformed code is the field's own message (read with the field), not the form's.
  const [codeError, setCodeError] = useState<string | null>(null);
  const id = useId();
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setCodeError(null);
    const code = String(new FormData(event.currentTarget).get('code')).replace(/\s+/g, '');
    if (!/^\d{6}$/.test(code)) return setCodeError('Enter the 6-digit code');
    try {
      await onCode(code);
    } catch (e) {
      const onField = e instanceof RpcError ? e.fieldErrors.code?.[0] : undefined;
      if (onField) setCodeError(onField);
      else setError(errorMessage(e));
    }
  }
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormError message={error} />
      <div className="grid gap-1.5">
        <label htmlFor={id} className={labelClass}>
          6-digit code
        </label>
        <input
          id={id}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={7}
          required
          aria-invalid={codeError ? true : undefined}
          aria-describedby={codeError ? `${id}-error` : undefined}
          onInput={() => setCodeError(null)}
          className={inputClass}
        />
        {codeError && (
          <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
            {codeError}
          </p>
        )}
      </div>
      <button type="submit" disabled={pending} className={submitClass}>
        {pending ? 'Checking…' : label}
      </button>
    </form>
  );
}

/** Second step of signing in: a code, or (admins without TOTP) enrolment first. */
export function TwoFactorPage() {
  const { staff, loading, refresh } = useStaffSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [verifying, trackVerify] = usePending();
  const [confirming, trackConfirm] = usePending();
  const [enrolment, setEnrolment] = useState<Outputs['staff']['totp']['begin'] | null>(null);
  const [enrolError, setEnrolError] = useState<unknown>(null);
  const needsEnrolment = staff?.twoFactor === 'enrol';

  useEffect(() => {
    if (!needsEnrolment) return;
    rpc.mutation<Outputs['staff']['totp']['begin']>('staff.totp.begin').then(setEnrolment, setEnrolError);
  }, [needsEnrolment]);

  if (loading) return <AuthCard title="Two-factor authentication"><p>Loading…</p></AuthCard>;
  if (!staff) return <Redirect to="/admin/login" replace />;
  if (staff.twoFactor === 'ok') return <Redirect to={safeNext(params.get('next')) ?? homePathFor(staff.user.role)} replace />;

  const done = async () => {
    await refresh();
    navigate(safeNext(params.get('next')) ?? homePathFor(staff.user.role));
  };
  const signOut = async () => {
    await rpc.mutation('staff.logout');
    await refresh();
    navigate('/admin/login');
  };

  if (staff.twoFactor === 'verify') {
    return (
      <AuthCard title="Two-factor authentication">
        <p className="mb-4 text-slate-700">Enter the code from your authenticator app.</p>
        <CodeForm
          label="Verify"
          pending={verifying}
          onCode={async (code) => {
            await trackVerify(() => rpc.mutation('staff.totp.verify', { code }));
            await done();
          }}
        />
        <button type="button" className={linkButtonClass} onClick={signOut}>
          Sign out
        </button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Set up two-factor authentication">
      <p className="text-slate-700">Admins must use two-factor authentication. Add this account to an authenticator app, then enter the code it shows.</p>
      {enrolError !== null && <FormError message={errorMessage(enrolError)} />}
      {enrolment ? (
        <Suspense fallback={<p className="mt-4">Preparing your key…</p>}>
          <TotpEnrolment secret={enrolment.secret} uri={enrolment.uri} qrSvg={enrolment.qrSvg} />
        </Suspense>
      ) : (
        <p className="mt-4">Preparing your key…</p>
      )}
      <div className="mt-6">
        <CodeForm
          label="Turn on two-factor authentication"
          pending={confirming}
          onCode={async (code) => {
            await trackConfirm(() => rpc.mutation('staff.totp.confirm', { code }));
            await done();
          }}
        />
      </div>
      <button type="button" className={linkButtonClass} onClick={signOut}>
        Sign out
      </button>
    </AuthCard>
  );
}

export function InvitePage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [invitation, setInvitation] = useState<{ loading: boolean; data?: Outputs['staff']['invitation']; error?: unknown }>({ loading: true });
  const [accepting, track] = usePending();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<{ name?: string; password?: string }>({});
  const ids = { name: useId(), password: useId(), hint: useId(), nameError: useId(), passwordError: useId() };

  useEffect(() => {
    rpc.query<Outputs['staff']['invitation']>('staff.invitation', { token }).then(
      (data) => setInvitation({ loading: false, data }),
      (e: unknown) => setInvitation({ loading: false, error: e }),
    );
  }, [token]);

  if (invitation.loading) return <AuthCard title="Accept your invitation"><p>Loading…</p></AuthCard>;
  if (invitation.error || !invitation.data) {
    return (
      <AuthCard title="Accept your invitation">
        <FormError message={invitation.error ? errorMessage(invitation.error) : 'This invitation link is invalid or has expired.'} />
      </AuthCard>
    );
  }
  const invited = invitation.data;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    const password = String(form.get('password') ?? '');
    const invalid = {
      name: name ? undefined : 'Please enter your name.',
      password: password.length >= minPasswordLength ? undefined : shortPasswordMessage,
    };
    setFieldErrors(invalid);
    if (invalid.name || invalid.password) return;
    try {
      const result = await track(() => rpc.mutation<Outputs['staff']['acceptInvite']>('staff.acceptInvite', { token, name, password }));
      navigate(result.twoFactor === 'ok' ? homePathFor(result.role) : '/admin/two-factor');
    } catch (e) {
      const byField = e instanceof RpcError ? e.fieldErrors : {};
      if (byField.name?.[0] || byField.password?.[0]) setFieldErrors({ name: byField.name?.[0], password: byField.password?.[0] });
      else setError(errorMessage(e));
    }
  }

  return (
    <AuthCard title="Accept your invitation">
      <p className="mb-4 text-slate-700">
        Create the {staffRoleLabels[invited.role]} account for <strong>{invited.email}</strong>.
      </p>
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormError message={error} />
        <div className="grid gap-1.5">
          <label htmlFor={ids.name} className={labelClass}>
            Your name
          </label>
          <input
            id={ids.name}
            name="name"
            autoComplete="name"
            required
            aria-invalid={fieldErrors.name ? true : undefined}
            aria-describedby={fieldErrors.name ? ids.nameError : undefined}
            className={inputClass}
          />
          {fieldErrors.name && (
            <p id={ids.nameError} className="text-sm text-red-700">
              {fieldErrors.name}
            </p>
          )}
        </div>
        <div className="grid gap-1.5">
          <label htmlFor={ids.password} className={labelClass}>
            Password
          </label>
          <input
            id={ids.password}
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={minPasswordLength}
            required
            aria-invalid={fieldErrors.password ? true : undefined}
            aria-describedby={fieldErrors.password ? `${ids.hint} ${ids.passwordError}` : ids.hint}
            className={inputClass}
          />
          <p id={ids.hint} className="text-sm text-slate-600">
            At least 12 characters.
          </p>
          {fieldErrors.password && (
            <p id={ids.passwordError} className="text-sm text-red-700">
              {fieldErrors.password}
            </p>
          )}
        </div>
        <button type="submit" disabled={accepting} className={submitClass}>
          Create account
        </button>
      </form>
    </AuthCard>
  );
}
