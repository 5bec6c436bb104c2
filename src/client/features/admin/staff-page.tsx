import { useId, useState, type FormEvent } from 'react';
import { DataTable } from '../../components/ui/data-table.tsx';
import { Loaded } from '../../components/ui/loaded.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Select } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { trpc } from '../../lib/trpc.ts';
import { inviteInput, staffRoleLabels, staffRoles, type StaffRole } from '../../../shared/staff.ts';
import { timeIn } from './format.ts';
import { errorMessage } from '../../lib/errors.ts';
import { PageHeading } from './page-heading.tsx';
import { staffZone, useStaff } from './use-staff.tsx';
import { FormMessage } from './form-message.tsx';
import { useFieldErrors } from './use-field-errors.tsx';
import { CertificateUpload } from './certificate-upload.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';

/** A change an admin has asked for and not yet confirmed. */
type PendingChange = { kind: 'role'; userId: string; who: string; from: StaffRole; to: StaffRole } | { kind: 'deactivate'; userId: string; who: string };

/** 'Ada Lovelace (ada@example.com)': how a confirmation names the person. */
const who = (u: { name: string | null; email: string }) => (u.name ? `${u.name} (${u.email})` : u.email);

/** Admins: invite, change roles, deactivate (which signs the person out everywhere); each change confirmed first. */
export function StaffPage() {
  const { staff } = useStaff();
  const utils = trpc.useUtils();
  const list = trpc.staff.users.list.useQuery();
  const invite = trpc.staff.users.invite.useMutation();
  const revoke = trpc.staff.users.revokeInvite.useMutation();
  const setRole = trpc.staff.users.setRole.useMutation();
  const deactivate = trpc.staff.users.deactivate.useMutation();
  const reactivate = trpc.staff.users.reactivate.useMutation();
  const [link, setLink] = useState<{ url: string; emailed: boolean; email: string } | null>(null);
  // The role each row's select shows before it is applied: choosing (or arrowing through) it changes nothing.
  const [draftRoles, setDraftRoles] = useState<Record<string, StaffRole>>({});
  const [pending, setPending] = useState<PendingChange | null>(null);
  const inviteErrors = useFieldErrors<'email' | 'role'>();
  const ids = { email: useId(), role: useId() };
  const zone = staffZone(staff);

  const run = async (action: () => Promise<unknown>, success: string) => {
    try {
      await action();
      toast({ title: success, variant: 'success' });
      await utils.staff.users.list.invalidate();
    } catch (e) {
      toast({ title: 'Could not update', description: errorMessage(e), variant: 'destructive' });
    }
  };

  const confirmPending = async () => {
    if (!pending) return;
    const change = pending;
    if (change.kind === 'role') {
      await run(() => setRole.mutateAsync({ userId: change.userId, role: change.to }), 'Role changed');
      setDraftRoles((current) => {
        const next = { ...current };
        delete next[change.userId];
        return next;
      });
    } else {
      await run(() => deactivate.mutateAsync({ userId: change.userId }), 'Account deactivated');
    }
    setPending(null);
  };

  const onInvite = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const email = String(data.get('email'));
    const input = { email, role: String(data.get('role')) as StaffRole };
    if (!inviteErrors.check(inviteInput, input)) return;
    try {
      const result = await invite.mutateAsync(input);
      setLink({ url: result.url, emailed: result.emailed, email });
      form.reset();
      await utils.staff.users.list.invalidate();
    } catch (e) {
      inviteErrors.fail(e);
    }
  };

  return (
    <>
      <PageHeading title="Staff" />
      <section aria-labelledby="invite-heading" className="mb-8 rounded-xl border border-slate-200 bg-white p-6">
        <h2 id="invite-heading" className="text-lg font-semibold text-slate-900">
          Invite someone
        </h2>
        <form onSubmit={onInvite} className="mt-4 flex flex-wrap items-end gap-3" noValidate>
          <div className="grid min-w-64 flex-1 gap-1.5">
            <Label htmlFor={ids.email}>Email</Label>
            <Input id={ids.email} name="email" type="email" required {...inviteErrors.inputProps('email')} />
            {inviteErrors.message('email')}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={ids.role}>Role</Label>
            <Select id={ids.role} name="role" defaultValue="staff" className="w-40">
              {staffRoles.map((r) => (
                <option key={r} value={r}>
                  {staffRoleLabels[r]}
                </option>
              ))}
            </Select>
          </div>
          <Button type="submit" disabled={invite.isPending}>
            Create invitation
          </Button>
        </form>
        <FormMessage message={inviteErrors.formError} className="mt-3" />
        {link && (
          <div role="status" className="mt-4 rounded-md border border-green-300 bg-green-50 p-4 text-sm text-green-950">
            <p>
              Invitation for {link.email} created{link.emailed ? ' and emailed' : ''}. The link works once and expires in 7 days; it is shown only now:
            </p>
            <p className="mt-2 break-all font-mono">{link.url}</p>
          </div>
        )}
      </section>

      <Loaded query={list} what="staff">
        {(data) => (
          <>
            <DataTable caption="Accounts" captionVisible columns={['Name', 'Email', 'Role', 'Two-factor', 'Status', 'Actions']}>
              {data.users.map((u) => {
                const self = u.id === staff?.user.id;
                const draft = draftRoles[u.id] ?? u.role;
                return (
                  <tr key={u.id}>
                    <td className="px-4 py-3">{u.name || '—'}</td>
                    <td className="px-4 py-3">{u.email}</td>
                    <td className="px-4 py-3">
                      <div className="flex flex-wrap items-center gap-2">
                        <Select
                          aria-label={`Role of ${u.email}`}
                          value={draft}
                          className="h-9 w-32"
                          onChange={(e) => setDraftRoles((current) => ({ ...current, [u.id]: e.target.value as StaffRole }))}
                        >
                          {staffRoles.map((r) => (
                            <option key={r} value={r}>
                              {staffRoleLabels[r]}
                            </option>
                          ))}
                        </Select>
                        {draft !== u.role && (
                          <Button size="sm" onClick={() => setPending({ kind: 'role', userId: u.id, who: who(u), from: u.role, to: draft })}>
                            Change role…<span className="sr-only"> of {u.email}</span>
                          </Button>
                        )}
                      </div>
                    </td>
                    <td className="px-4 py-3">{u.totpEnabled ? 'On' : 'Off'}</td>
                    <td className="px-4 py-3">{u.active ? 'Active' : 'Deactivated'}</td>
                    <td className="px-4 py-3">
                      {self ? (
                        <span className="text-slate-600">You</span>
                      ) : u.active ? (
                        <Button size="sm" variant="outline" onClick={() => setPending({ kind: 'deactivate', userId: u.id, who: who(u) })}>
                          Deactivate…<span className="sr-only"> {u.email}</span>
                        </Button>
                      ) : (
                        <Button size="sm" variant="outline" onClick={() => run(() => reactivate.mutateAsync({ userId: u.id }), 'Account reactivated')}>
                          Reactivate<span className="sr-only"> {u.email}</span>
                        </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </DataTable>

            <section aria-labelledby="invites-heading" className="mt-8">
              <h2 id="invites-heading" className="mb-3 text-lg font-semibold text-slate-900">
                Pending invitations
              </h2>
              {data.invites.length === 0 ? (
                <p className="text-sm text-slate-700">None.</p>
              ) : (
                <ul className="grid gap-2 text-sm">
                  {data.invites.map((i) => (
                    <li key={i.id} className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white px-4 py-2">
                      <span className="font-medium">{i.email}</span>
                      <span>{staffRoleLabels[i.role]}</span>
                      <span className="text-slate-600">expires {timeIn(i.expiresAt, zone)}</span>
                      <Button size="sm" variant="ghost" onClick={() => run(() => revoke.mutateAsync({ inviteId: i.id }), 'Invitation revoked')}>
                        Revoke<span className="sr-only"> invitation for {i.email}</span>
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <CertificateUpload notaries={data.users.filter((u) => u.role === 'notary' && u.active)} />
            <ConfirmDialog
              open={pending !== null}
              onOpenChange={(open) => !open && setPending(null)}
              title={pending?.kind === 'role' ? `Change the role of ${pending.who}?` : `Deactivate ${pending?.who ?? ''}?`}
              description={
                pending?.kind === 'role' ? (
                  <p>
                    {pending.who} changes from <strong>{staffRoleLabels[pending.from]}</strong> to <strong>{staffRoleLabels[pending.to]}</strong>. What they can see and do in the console changes at once.
                  </p>
                ) : (
                  <p>{pending?.who} is signed out everywhere and can no longer sign in until an admin reactivates the account.</p>
                )
              }
              confirmLabel={pending?.kind === 'role' ? 'Change role' : 'Deactivate account'}
              cancelLabel="Cancel"
              busyLabel="Saving…"
              busy={setRole.isPending || deactivate.isPending}
              destructive={pending?.kind === 'deactivate'}
              onConfirm={() => void confirmPending()}
            />
          </>
        )}
      </Loaded>
    </>
  );
}
