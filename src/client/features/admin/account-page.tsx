import { useId, type FormEvent } from 'react';
import type { ZodType } from 'zod';
import { changePasswordInput, totpCodeInput, updateProfileInput } from '../../../shared/staff.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { trpc } from '../../lib/trpc.ts';
import { TotpEnrolment } from './totp-enrolment.tsx';
import { FormMessage } from './form-message.tsx';
import { useFieldErrors, type FieldErrors } from './use-field-errors.tsx';
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
  const profileErrors = useFieldErrors<'name' | 'timeZone'>();
  const passwordErrors = useFieldErrors<'currentPassword' | 'newPassword'>();
  const offErrors = useFieldErrors<'code'>();
  const onErrors = useFieldErrors<'code'>();
  const ids = { name: useId(), zone: useId(), current: useId(), next: useId(), code: useId(), offCode: useId() };
  if (!staff) return null;

  /** Checks the form against the server's own schema, sends it, and puts any refusal on its field. */
  const submit =
    <T,>(errors: FieldErrors, schema: ZodType<T>, read: (form: FormData) => T, action: (input: T) => Promise<unknown>, success: string) =>
    async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = event.currentTarget;
      const input = read(new FormData(form));
      if (!errors.check(schema, input)) return;
      try {
        await action(input);
        toast({ title: success, variant: 'success' });
        await refresh();
        if (form.dataset.reset) form.reset();
      } catch (e) {
        errors.fail(e);
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
            noValidate
            onSubmit={submit(
              profileErrors,
              updateProfileInput,
              (f) => ({ name: String(f.get('name')), timeZone: String(f.get('timeZone')) }),
              (input) => profile.mutateAsync(input),
              'Profile saved',
            )}
          >
            <FormMessage message={profileErrors.formError} />
            <div className="grid gap-1.5">
              <Label htmlFor={ids.name}>Name</Label>
              <Input id={ids.name} name="name" defaultValue={staff.user.name} required autoComplete="name" {...profileErrors.inputProps('name')} />
              {profileErrors.message('name')}
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
            noValidate
            onSubmit={submit(
              passwordErrors,
              changePasswordInput,
              (f) => ({ currentPassword: String(f.get('current')), newPassword: String(f.get('next')) }),
              (input) => password.mutateAsync(input),
              'Password changed; other sessions signed out',
            )}
          >
            <FormMessage message={passwordErrors.formError} />
            <div className="grid gap-1.5">
              <Label htmlFor={ids.current}>Current password</Label>
              <Input id={ids.current} name="current" type="password" autoComplete="current-password" required {...passwordErrors.inputProps('currentPassword')} />
              {passwordErrors.message('currentPassword')}
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={ids.next}>New password (at least 12 characters)</Label>
              <Input id={ids.next} name="next" type="password" autoComplete="new-password" minLength={12} required {...passwordErrors.inputProps('newPassword')} />
              {passwordErrors.message('newPassword')}
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
                  noValidate
                  onSubmit={submit(
                    offErrors,
                    totpCodeInput,
                    (f) => ({ code: String(f.get('code')) }),
                    (input) => disable.mutateAsync(input),
                    'Two-factor authentication turned off',
                  )}
                >
                  <FormMessage message={offErrors.formError} />
                  <div className="grid gap-1.5">
                    <Label htmlFor={ids.offCode}>Current code</Label>
                    <Input id={ids.offCode} name="code" inputMode="numeric" autoComplete="one-time-code" required className="w-40" {...offErrors.inputProps('code')} />
                    {offErrors.message('code')}
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
              <TotpEnrolment secret={begin.data.secret} uri={begin.data.uri} qrSvg={begin.data.qrSvg} />
              <form
                className="mt-4 flex flex-wrap items-end gap-3"
                noValidate
                onSubmit={submit(
                  onErrors,
                  totpCodeInput,
                  (f) => ({ code: String(f.get('code')).replace(/\s+/g, '') }),
                  (input) => confirm.mutateAsync(input),
                  'Two-factor authentication is on',
                )}
              >
                <div className="grid gap-1.5">
                  <Label htmlFor={ids.code}>6-digit code</Label>
                  <Input id={ids.code} name="code" inputMode="numeric" autoComplete="one-time-code" required className="w-40" {...onErrors.inputProps('code')} />
                  {onErrors.message('code')}
                </div>
                <Button type="submit" disabled={confirm.isPending}>
                  Turn on
                </Button>
              </form>
              <FormMessage message={onErrors.formError} />
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
