import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { Select, Textarea } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { trpc } from '../../lib/trpc.ts';
import { formatUsd } from '../../../shared/money.ts';
import { auditActionLabel, bookingStatusLabel, paymentMethodLabel, paymentStatusLabel } from '../../../shared/labels.ts';
import { timeIn } from './format.ts';
import { errorMessage } from '../../lib/errors.ts';
import { PageHeading } from './page-heading.tsx';
import { StatusBadge } from './status-badge.tsx';
import { useStaff } from './use-staff.tsx';
import { FormMessage } from './form-message.tsx';
import { useFieldErrors } from './use-field-errors.tsx';
import { staffCancelInput } from '../../../shared/console.ts';
import { Facts } from '../../components/ui/facts.tsx';
import { formatFileSize } from '../../lib/file-size.ts';
import { StaffReschedule } from './staff-reschedule.tsx';
import { AdminRefund } from './admin-refund.tsx';
import { actStageLabels } from '../../../shared/act-stages.ts';
import { IdentityFacts } from '../notarial-act/identity-facts.tsx';
import { sessionOutcomeLabels, sessionOutcomes, sessionStateLabels, type SessionOutcome } from '../../../shared/session.ts';

/** One booking for staff (or for its assigned notary: no history, no office actions). */
export function BookingDetailPage() {
  const { bookingId = '' } = useParams();
  const { staff } = useStaff();
  const utils = trpc.useUtils();
  const detail = trpc.console.bookings.get.useQuery({ bookingId }, { retry: false });
  const office = staff?.user.role === 'admin' || staff?.user.role === 'staff';
  const notaries = trpc.staff.notaries.useQuery(undefined, { enabled: office });
  const assign = trpc.console.bookings.assignNotary.useMutation();
  const markOutcome = trpc.console.bookings.markOutcome.useMutation();
  const cancel = trpc.console.bookings.cancel.useMutation();
  const [cancelling, setCancelling] = useState(false);
  const [notaryChoice, setNotaryChoice] = useState<string | null>(null);
  const cancelErrors = useFieldErrors<'reason'>();
  const ids = { notary: useId(), reason: useId(), outcome: useId(), outcomeReason: useId() };
  const back = staff?.user.role === 'notary' ? '/admin/appointments' : '/admin/bookings';
  const opened = detail.data?.id;
  // Opening a newly assigned appointment clears it from the navigation's "new" count.
  useEffect(() => {
    if (opened && staff?.user.role === 'notary') void utils.console.newAppointments.invalidate();
  }, [opened, staff?.user.role, utils]);

  if (detail.isLoading) return <p>Loading booking…</p>;
  if (detail.error || !detail.data) {
    return (
      <>
        <PageHeading title="Booking" />
        <p role="alert" className="text-red-700">
          {detail.error ? errorMessage(detail.error) : 'Booking not found'}
        </p>
        <Link to={back} className="mt-4 inline-block text-blue-700 underline">
          Back
        </Link>
      </>
    );
  }
  const b = detail.data;
  const refresh = () => utils.console.bookings.get.invalidate({ bookingId });

  const onAssign = async (event: FormEvent) => {
    event.preventDefault();
    const value = notaryChoice ?? b.notary?.id ?? '';
    try {
      await assign.mutateAsync({ bookingId, notaryId: value || null });
      toast({ title: value ? 'Notary assigned' : 'Notary unassigned', variant: 'success' });
      setNotaryChoice(null);
      await refresh();
    } catch (e) {
      toast({ title: 'Could not assign', description: errorMessage(e), variant: 'destructive' });
    }
  };
  const onOutcome = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const outcome = String(form.get('outcome')) as SessionOutcome;
    const reason = String(form.get('reason') ?? '').trim();
    try {
      await markOutcome.mutateAsync({ bookingId, outcome, reason: reason || undefined });
      toast({ title: `Marked: ${sessionOutcomeLabels[outcome]}`, variant: 'success' });
      await refresh();
    } catch (e) {
      toast({ title: 'Could not update', description: errorMessage(e), variant: 'destructive' });
    }
  };
  const onCancel = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = { bookingId, reason: String(new FormData(event.currentTarget).get('reason') ?? '') };
    if (!cancelErrors.check(staffCancelInput, input)) return;
    try {
      const result = await cancel.mutateAsync(input);
      toast({ title: 'Booking cancelled', description: result.refundedCents > 0 ? `${formatUsd(result.refundedCents)} refunded.` : 'Nothing to refund.', variant: 'success' });
      setCancelling(false);
      await refresh();
    } catch (e) {
      cancelErrors.fail(e);
    }
  };

  return (
    <>
      <p className="mb-2">
        <Link to={back} className="text-sm text-blue-700 underline-offset-2 hover:underline">
          ← {staff?.user.role === 'notary' ? 'My appointments' : 'All bookings'}
        </Link>
      </p>
      <PageHeading title={`Booking ${b.reference}`}>
        <StatusBadge status={b.status} />
      </PageHeading>
      <div className="grid gap-6 lg:grid-cols-2">
        <SectionCard title="Appointment">
          <Facts
            rows={[
              ['Your time', timeIn(b.startsAt, b.staffTimeZone)],
              ["Customer's time", timeIn(b.startsAt, b.customerTimeZone)],
              ['Notary', b.notary ? b.notary.name : 'Unassigned'],
              ['Price', formatUsd(b.priceCents)],
              ...(b.priceLines.length > 1 ? b.priceLines.map((line): [string, ReactNode] => [line.label, formatUsd(line.cents)]) : []),
              ...b.signerPayments.map((fee): [string, ReactNode] => [
                `Additional signer${fee.name ? `: ${fee.name}` : ''} (paid separately)`,
                `${formatUsd(fee.amountCents)} — ${fee.status}${fee.refundedCents > 0 ? `, refunded ${formatUsd(fee.refundedCents)}` : ''}`,
              ]),
              ...(b.cancellationReason ? ([['Cancellation reason', b.cancellationReason]] as [string, ReactNode][]) : []),
            ]}
          />
          {b.canMarkOutcome && (
            <form onSubmit={onOutcome} className="mt-4 grid gap-2">
              <div className="grid gap-1.5">
                <Label htmlFor={ids.outcome}>Outcome</Label>
                <Select id={ids.outcome} name="outcome" defaultValue="no_show">
                  {sessionOutcomes.map((value) => (
                    <option key={value} value={value}>
                      {sessionOutcomeLabels[value]}
                    </option>
                  ))}
                </Select>
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={ids.outcomeReason}>Reason (emailed to the customer; not needed for Completed)</Label>
                <Textarea id={ids.outcomeReason} name="reason" maxLength={1000} className="min-h-16" />
              </div>
              <Button size="sm" type="submit" disabled={markOutcome.isPending} className="justify-self-start">
                Record outcome
              </Button>
            </form>
          )}
        </SectionCard>

        <SectionCard title="Customer">
          {b.customer ? (
            <Facts
              rows={[
                ['Name', b.customer.name],
                ['Email', <a href={`mailto:${b.customer.email}`} className="text-blue-700 underline">{b.customer.email}</a>],
                ['Phone', b.customer.phone ? <a href={`tel:${b.customer.phone}`} className="text-blue-700 underline">{b.customer.phone}</a> : 'Not given'],
              ]}
            />
          ) : (
            <p className="text-sm text-slate-700">The customer has not given contact details yet.</p>
          )}
        </SectionCard>

        <SectionCard title="Documents">
          {b.documents.length === 0 ? (
            <p className="text-sm text-slate-700">No documents.</p>
          ) : (
            <ul className="grid gap-2 text-sm">
              {b.documents.map((d) => (
                <li key={d.id} className="flex flex-wrap items-center justify-between gap-2">
                  {d.downloadable ? (
                    <a href={`/api/staff/documents/${d.id}`} download className="font-medium text-blue-700 underline-offset-2 hover:underline">
                      {d.name}
                    </a>
                  ) : (
                    <span>
                      {d.name} <span className="text-slate-600">({d.status === 'deleted' ? 'deleted after retention' : 'unavailable'})</span>
                    </span>
                  )}
                  <span className="text-slate-600">{d.sizeBytes === null ? '' : formatFileSize(d.sizeBytes)}</span>
                </li>
              ))}
            </ul>
          )}
        </SectionCard>

        <SectionCard title="Payment">
          {b.payment ? (
            <Facts
              rows={[
                ['Amount', formatUsd(b.payment.amountCents)],
                ['Status', paymentStatusLabel(b.payment.status)],
                ['Method', paymentMethodLabel(b.payment.method)],
                ['Refunded', formatUsd(b.payment.refundedCents)],
                ['Payment id', <span className="font-mono">{b.payment.providerPaymentId}</span>],
                ['Provider', b.payment.provider === 'test' ? 'Test mode' : 'Stripe'],
              ]}
            />
          ) : (
            <p className="text-sm text-slate-700">No payment yet.</p>
          )}
        </SectionCard>
      </div>

      {(staff?.user.role === 'admin' || staff?.user.role === 'notary') && <IdentityProofing bookingId={b.id} />}

      <section aria-labelledby="session-heading" className="mt-6 rounded-xl border border-slate-200 bg-white p-6">
        <h2 id="session-heading" className="text-lg font-semibold text-slate-900">
          Video session
        </h2>
        <p className="mt-1 text-sm text-slate-800" data-testid="session-state">
          {sessionStateLabels[b.session.state]}
          {b.session.outcome ? ` · ${sessionOutcomeLabels[b.session.outcome]}` : ''}
          {b.session.outcomeReason ? ` · ${b.session.outcomeReason}` : ''}
        </p>
        <p className="mt-1 text-sm text-slate-800" data-testid="act-stage">
          Act: {actStageLabels[b.session.actStage]}
        </p>
        <SignerIdentity identity={b.session.identity} />
        {b.session.canStart && (
          <Button asChild className="mt-3">
            {/* A full page load: the room's own Permissions-Policy allows the camera. */}
            <a href={`/admin/appointments/${b.id}/session`}>Start session</a>
          </Button>
        )}
        {b.session.recordings.length > 0 && (
          <ul className="mt-4 grid gap-4">
            {b.session.recordings.map((r, index) => (
              <li key={r.id} className="grid gap-1">
                <p className="text-sm font-medium text-slate-900">
                  Recording {index + 1} · {timeIn(r.startedAt, b.staffTimeZone)} · {formatFileSize(r.sizeBytes ?? 0)}
                </p>
                <video controls preload="none" src={`/api/session/recordings/${r.id}`} aria-label={`Recording ${index + 1} of the session`} className="w-full max-w-2xl rounded-md bg-slate-900" />
              </li>
            ))}
          </ul>
        )}
      </section>

      {office && (
        <div className="mt-6 grid gap-6 lg:grid-cols-2">
          <SectionCard title="Assign a notary">
            <form onSubmit={onAssign} className="flex flex-wrap items-end gap-3">
              <div className="grid min-w-56 flex-1 gap-1.5">
                <Label htmlFor={ids.notary}>Notary</Label>
                <Select id={ids.notary} value={notaryChoice ?? b.notary?.id ?? ''} onChange={(e) => setNotaryChoice(e.target.value)} disabled={b.status === 'cancelled'}>
                  <option value="">Unassigned</option>
                  {notaries.data?.map((n) => (
                    <option key={n.id} value={n.id}>
                      {n.name || n.email}
                    </option>
                  ))}
                </Select>
              </div>
              <Button type="submit" disabled={assign.isPending || b.status === 'cancelled'}>
                Save
              </Button>
            </form>
          </SectionCard>

          {b.status === 'confirmed' && (
            <SectionCard title="Reschedule for the customer">
              <StaffReschedule bookingId={b.id} customerTimeZone={b.customerTimeZone} startsAt={b.startsAt} onMoved={refresh} />
            </SectionCard>
          )}

          {b.canCancel && (
            <SectionCard title="Cancel booking">
              {cancelling ? (
                <form onSubmit={onCancel} className="grid gap-3" noValidate>
                  <FormMessage message={cancelErrors.formError} />
                  <div className="grid gap-1.5">
                    <Label htmlFor={ids.reason}>Reason (shown in the history)</Label>
                    <Textarea id={ids.reason} name="reason" required maxLength={500} {...cancelErrors.inputProps('reason')} />
                    {cancelErrors.message('reason')}
                  </div>
                  <p className="text-sm text-slate-700">Any payment is refunded in full and the customer is emailed.</p>
                  <div className="flex gap-2">
                    <Button type="submit" variant="destructive" disabled={cancel.isPending}>
                      Cancel and refund
                    </Button>
                    <Button type="button" variant="outline" onClick={() => setCancelling(false)}>
                      Keep booking
                    </Button>
                  </div>
                </form>
              ) : (
                <Button variant="outline" onClick={() => setCancelling(true)}>
                  Cancel with refund…
                </Button>
              )}
            </SectionCard>
          )}
          {b.canRefund && (
            <SectionCard title="Refund payment">
              <AdminRefund bookingId={b.id} notarized={b.notarized} onRefunded={refresh} />
            </SectionCard>
          )}
        </div>
      )}

      {office && (
        <section aria-labelledby="history-heading" className="mt-6 rounded-xl border border-slate-200 bg-white p-6">
          <h2 id="history-heading" className="text-lg font-semibold text-slate-900">
            History
          </h2>
          {b.history.length === 0 ? (
            <p className="mt-2 text-sm text-slate-700">Nothing recorded yet.</p>
          ) : (
            <ol className="mt-3 grid gap-2 text-sm">
              {b.history.map((h) => (
                <li key={h.id} className="flex flex-wrap gap-x-3">
                  <span className="text-slate-600">{timeIn(h.createdAt, b.staffTimeZone)}</span>
                  <span className="font-medium">{auditActionLabel(h.action)}</span>
                  {h.data && 'to' in h.data && h.action === 'booking.status_changed' && <span>→ {bookingStatusLabel(String(h.data.to))}</span>}
                  <span className="text-slate-600">by {h.actor}</span>
                  {h.action === 'booking.refunded' && typeof h.data?.reason === 'string' && <span className="w-full text-slate-700">Reason: {h.data.reason}</span>}
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
    </>
  );
}

/** The signer's identity proofing (notary of the booking and admins only; every view is audited). */
const kbaStatusWords = { not_started: 'not started', in_progress: 'under way', passed: 'passed', failed: 'not passed', locked: 'not passed, locked out for 24 hours', stale: 'passed too long ago, to answer again' } as const;

/** Each signer's identity proofing as a status (every console role; the details below are for the notary and admins). */
function SignerIdentity({ identity }: { identity: { credentialAnalysis: boolean; kba: keyof typeof kbaStatusWords; notaryConfirmed: boolean } }) {
  return (
    <dl className="mt-2 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm" data-testid="signer-identity">
      <dt className="font-medium text-slate-600">Signer’s ID</dt>
      <dd className="text-slate-900">{identity.credentialAnalysis ? 'Verified' : 'Not verified yet'}</dd>
      <dt className="font-medium text-slate-600">Identity questions</dt>
      <dd className="text-slate-900">{kbaStatusWords[identity.kba][0]!.toUpperCase() + kbaStatusWords[identity.kba].slice(1)}</dd>
      <dt className="font-medium text-slate-600">Notary’s confirmation</dt>
      <dd className="text-slate-900">{identity.notaryConfirmed ? 'Confirmed on camera' : 'Not yet'}</dd>
    </dl>
  );
}

function IdentityProofing({ bookingId }: { bookingId: string }) {
  const identity = trpc.act.identity.useQuery({ bookingId }, { retry: false });
  return (
    <section aria-labelledby="identity-heading" className="mt-6 rounded-xl border border-slate-200 bg-white p-6">
      <h2 id="identity-heading" className="mb-3 text-lg font-semibold text-slate-900">
        Identity proofing
      </h2>
      {identity.error ? (
        <p role="alert" className="text-sm text-red-700">
          {identity.error.message}
        </p>
      ) : identity.data ? (
        <>
          {identity.data.startBlocker && (
            <p className="mb-3 text-sm font-semibold text-amber-900" data-testid="identity-proofing-blocker">
              {identity.data.startBlocker}
            </p>
          )}
          <IdentityFacts view={identity.data} />
        </>
      ) : (
        <p className="text-sm text-slate-700">Loading…</p>
      )}
    </section>
  );
}
