import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { trpc } from '../../lib/trpc.ts';
import { TotpEnrolment } from './auth-pages.tsx';
import { errorMessage } from './format.ts';
import { PageHeading } from './page-heading.tsx';
import { useStaff } from './use-staff.tsx';

const zones = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Phoenix', 'America/Los_Angeles', 'America/Anchorage', 'Pacific/Honolulu'];

/** Own profile (name, the zone times are shown in), password, two-factor. */
export function AccountPage() {
  const { staff, refresh } = useStaff();
  const profile = trpc.staff.account.updateProfile.useMutation();
  const password = trpc.staff.account.changePassword.useMutation();
  const begin = trpc.staff.totp.begin.useMutation();
  const confirm = trpc.staff.totp.confirm.useMutation();
  const disable = trpc.staff.totp.disable.useMutation();
  const [totpError, setTotpError] = useState<string | null>(null);
  const ids = { name: useId(), zone: useId(), current: useId(), next: useId(), code: useId(), offCode: useId() };
  if (!staff) return null;

  const submit = (action: (form: FormData) => Promise<unknown>, success: string) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      await action(new FormData(form));
      toast({ title: success, variant: 'success' });
      await refresh();
      if (form.dataset.reset) form.reset();
    } catch (e) {
      toast({ title: 'Could not save', description: errorMessage(e), variant: 'destructive' });
    }
  };

  const zoneOptions = zones.includes(staff.user.timeZone) ? zones : [staff.user.timeZone, ...zones];

  return (
    <>
      <PageHeading title="Account" />
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="profile-heading" className="rounded-xl border border-slate-200 bg-white p-6">
          <h2 id="profile-heading" className="text-lg font-semibold text-slate-900">
            Profile
          </h2>
          <p className="mt-1 text-sm text-slate-700">{staff.user.email}</p>
          <form
            className="mt-4 grid gap-4"
            onSubmit={submit((f) => profile.mutateAsync({ name: String(f.get('name')), timeZone: String(f.get('timeZone')) }), 'Profile saved')}
          >
            <div className="grid gap-1.5">
              <Label htmlFor={ids.name}>Name</Label>
              <Input id={ids.name} name="name" defaultValue={staff.user.name} required autoComplete="name" />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={ids.zone}>Show times in</Label>
              <select
                id={ids.zone}
                name="timeZone"
                defaultValue={staff.user.timeZone}
                className="h-11 w-full rounded-md border border-slate-400 bg-white px-3 text-base text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-700"
              >
                {zoneOptions.map((z) => (
                  <option key={z} value={z}>
                    {z.replaceAll('_', ' ')}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" disabled={profile.isPending}>
              Save profile
            </Button>
          </form>
        </section>

        <section aria-labelledby="password-heading" className="rounded-xl border border-slate-200 bg-white p-6">
          <h2 id="password-heading" className="text-lg font-semibold text-slate-900">
            Password
          </h2>
          <form
            data-reset="true"
            className="mt-4 grid gap-4"
            onSubmit={submit((f) => password.mutateAsync({ currentPassword: String(f.get('current')), newPassword: String(f.get('next')) }), 'Password changed; other sessions signed out')}
          >
            <div className="grid gap-1.5">
              <Label htmlFor={ids.current}>Current password</Label>
              <Input id={ids.current} name="current" type="password" autoComplete="current-password" required />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={ids.next}>New password (at least 12 characters)</Label>
              <Input id={ids.next} name="next" type="password" autoComplete="new-password" minLength={12} required />
            </div>
            <Button type="submit" disabled={password.isPending}>
              Change password
            </Button>
          </form>
        </section>

        <section aria-labelledby="totp-heading" className="rounded-xl border border-slate-200 bg-white p-6 lg:col-span-2">
          <h2 id="totp-heading" className="text-lg font-semibold text-slate-900">
            Two-factor authentication
          </h2>
          {staff.totpEnabled ? (
            <>
              <p className="mt-2 text-slate-700">On: signing in asks for a code from your authenticator app.</p>
              {staff.user.role !== 'admin' && (
                <form
                  data-reset="true"
                  className="mt-4 flex flex-wrap items-end gap-3"
                  onSubmit={submit((f) => disable.mutateAsync({ code: String(f.get('code')) }), 'Two-factor authentication turned off')}
                >
                  <div className="grid gap-1.5">
                    <Label htmlFor={ids.offCode}>Current code</Label>
                    <Input id={ids.offCode} name="code" inputMode="numeric" autoComplete="one-time-code" required className="w-40" />
                  </div>
                  <Button type="submit" variant="outline" disabled={disable.isPending}>
                    Turn off
                  </Button>
                </form>
              )}
            </>
          ) : begin.data ? (
            <>
              <p className="mt-2 text-slate-700">Add this key to your authenticator app, then enter the code it shows.</p>
              <TotpEnrolment secret={begin.data.secret} uri={begin.data.uri} />
              <form
                className="mt-4 flex flex-wrap items-end gap-3"
                onSubmit={async (event) => {
                  event.preventDefault();
                  setTotpError(null);
                  try {
                    await confirm.mutateAsync({ code: String(new FormData(event.currentTarget).get('code')) });
                    toast({ title: 'Two-factor authentication is on', variant: 'success' });
                    await refresh();
                  } catch (e) {
                    setTotpError(errorMessage(e));
                  }
                }}
              >
                <div className="grid gap-1.5">
                  <Label htmlFor={ids.code}>6-digit code</Label>
                  <Input id={ids.code} name="code" inputMode="numeric" autoComplete="one-time-code" required className="w-40" />
                </div>
                <Button type="submit" disabled={confirm.isPending}>
                  Turn on
                </Button>
              </form>
              {totpError && (
                <p role="alert" className="mt-2 text-sm text-red-700">
                  {totpError}
                </p>
              )}
            </>
          ) : (
            <>
              <p className="mt-2 text-slate-700">Off. A code from an authenticator app makes a stolen password useless.</p>
              <Button className="mt-4" onClick={() => begin.mutate()} disabled={begin.isPending}>
                Set up two-factor authentication
              </Button>
            </>
          )}
        </section>
      </div>
    </>
  );
}
