import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { trpc } from '../../lib/trpc.ts';
import { homePathFor, staffRoleLabels } from '../../../shared/staff.ts';
import { errorMessage } from './format.ts';
import { useStaff } from './use-staff.tsx';

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
  const { staff, refresh } = useStaff();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const login = trpc.staff.login.useMutation();
  const ids = { email: useId(), password: useId() };

  if (staff?.twoFactor === 'ok' && !login.isPending) return <Navigate to={safeNext(params.get('next')) ?? homePathFor(staff.user.role)} replace />;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const form = new FormData(event.currentTarget);
    try {
      const result = await login.mutateAsync({ email: String(form.get('email')), password: String(form.get('password')) });
      await refresh();
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
          <Label htmlFor={ids.email}>Email</Label>
          <Input id={ids.email} name="email" type="email" autoComplete="username" required />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.password}>Password</Label>
          <Input id={ids.password} name="password" type="password" autoComplete="current-password" required />
        </div>
        <Button type="submit" disabled={login.isPending}>
          {login.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </AuthCard>
  );
}

function CodeForm({ onCode, pending, label }: { onCode: (code: string) => Promise<void>; pending: boolean; label: string }) {
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const code = String(new FormData(event.currentTarget).get('code')).replace(/\s+/g, '');
    try {
      await onCode(code);
    } catch (e) {
      setError(errorMessage(e));
    }
  }
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormError message={error} />
      <div className="grid gap-1.5">
        <Label htmlFor={id}>6-digit code</Label>
        <Input id={id} name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={7} required />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? 'Checking…' : label}
      </Button>
    </form>
  );
}

/** Second step of signing in: a code, or (admins without TOTP) enrolment first. */
export function TwoFactorPage() {
  const { staff, loading, refresh } = useStaff();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const verify = trpc.staff.totp.verify.useMutation();
  const begin = trpc.staff.totp.begin.useMutation();
  const confirm = trpc.staff.totp.confirm.useMutation();
  const logout = trpc.staff.logout.useMutation();
  const needsEnrolment = staff?.twoFactor === 'enrol';
  const { mutate: startEnrolment, data: enrolment, error: enrolError } = begin;

  useEffect(() => {
    if (needsEnrolment) startEnrolment();
  }, [needsEnrolment, startEnrolment]);

  if (loading) return <AuthCard title="Two-factor authentication"><p>Loading…</p></AuthCard>;
  if (!staff) return <Navigate to="/admin/login" replace />;
  if (staff.twoFactor === 'ok') return <Navigate to={safeNext(params.get('next')) ?? homePathFor(staff.user.role)} replace />;

  const done = async () => {
    await refresh();
    navigate(safeNext(params.get('next')) ?? homePathFor(staff.user.role));
  };
  const signOut = async () => {
    await logout.mutateAsync();
    await refresh();
    navigate('/admin/login');
  };

  if (staff.twoFactor === 'verify') {
    return (
      <AuthCard title="Two-factor authentication">
        <p className="mb-4 text-slate-700">Enter the code from your authenticator app.</p>
        <CodeForm
          label="Verify"
          pending={verify.isPending}
          onCode={async (code) => {
            await verify.mutateAsync({ code });
            await done();
          }}
        />
        <Button variant="link" size="inline" className="mt-4" onClick={signOut}>
          Sign out
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Set up two-factor authentication">
      <p className="text-slate-700">Admins must use two-factor authentication. Add this account to an authenticator app, then enter the code it shows.</p>
      {enrolError && <FormError message={errorMessage(enrolError)} />}
      {enrolment ? <TotpEnrolment secret={enrolment.secret} uri={enrolment.uri} /> : <p className="mt-4">Preparing your key…</p>}
      <div className="mt-6">
        <CodeForm
          label="Turn on two-factor authentication"
          pending={confirm.isPending}
          onCode={async (code) => {
            await confirm.mutateAsync({ code });
            await done();
          }}
        />
      </div>
      <Button variant="link" size="inline" className="mt-4" onClick={signOut}>
        Sign out
      </Button>
    </AuthCard>
  );
}

/** The key as text (typed into the app) and as the otpauth link (opened on the same device). */
export function TotpEnrolment({ secret, uri }: { secret: string; uri: string }) {
  const grouped = secret.match(/.{1,4}/g)?.join(' ') ?? secret;
  return (
    <div className="mt-4 grid gap-3">
      <div>
        <p className="text-sm font-medium text-slate-800">Or enter this key</p>
        <p className="mt-1 break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-sm text-slate-900">{grouped}</p>
      </div>
      <details className="text-sm text-slate-700">
        <summary className="cursor-pointer">Show the otpauth link</summary>
        <p className="mt-1 break-all font-mono text-xs">{uri}</p>
      </details>
    </div>
  );
}

export function InvitePage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { refresh } = useStaff();
  const invitation = trpc.staff.invitation.useQuery({ token }, { retry: false });
  const accept = trpc.staff.acceptInvite.useMutation();
  const [error, setError] = useState<string | null>(null);
  const ids = { name: useId(), password: useId(), hint: useId() };

  if (invitation.isLoading) return <AuthCard title="Accept your invitation"><p>Loading…</p></AuthCard>;
  if (invitation.error || !invitation.data) {
    return (
      <AuthCard title="Accept your invitation">
        <FormError message={invitation.error ? errorMessage(invitation.error) : 'This invitation link is invalid or has expired.'} />
      </AuthCard>
    );
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const form = new FormData(event.currentTarget);
    try {
      const result = await accept.mutateAsync({ token, name: String(form.get('name')), password: String(form.get('password')) });
      await refresh();
      navigate(result.twoFactor === 'ok' ? homePathFor(result.role) : '/admin/two-factor');
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  return (
    <AuthCard title="Accept your invitation">
      <p className="mb-4 text-slate-700">
        Create the {staffRoleLabels[invitation.data.role]} account for <strong>{invitation.data.email}</strong>.
      </p>
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormError message={error} />
        <div className="grid gap-1.5">
          <Label htmlFor={ids.name}>Your name</Label>
          <Input id={ids.name} name="name" autoComplete="name" required />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.password}>Password</Label>
          <Input id={ids.password} name="password" type="password" autoComplete="new-password" minLength={12} required aria-describedby={ids.hint} />
          <p id={ids.hint} className="text-sm text-slate-600">
            At least 12 characters.
          </p>
        </div>
        <Button type="submit" disabled={accept.isPending}>
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}
