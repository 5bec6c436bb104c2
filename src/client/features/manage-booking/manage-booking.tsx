import { Fragment, useEffect, useState } from 'react';
import { Download, FileText, Video } from 'lucide-react';
import { sessionMessages } from '../../../shared/session.ts';
import { actStageLabels } from '../../../shared/act-stages.ts';
import { appointmentEvent, calendarDownloadPath } from '../../../shared/calendar.ts';
import { CalendarLinks } from '../../components/calendar-links.tsx';
import { PriceLineRows } from '../../components/price-lines.tsx';
import { formatInZone } from '../../../shared/time.ts';
import { manageMessages, type ManageBookingView } from '../../../shared/manage-booking.ts';
import { paymentMethodLabel } from '../../../shared/labels.ts';
import { formatUsd } from '../../../shared/money.ts';
import { site } from '../../../shared/site.ts';
import { Button } from '../../components/ui/button.tsx';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { trpc } from '../../lib/trpc.ts';
import { CancelPanel } from './cancel-panel.tsx';
import { ReschedulePanel } from './reschedule-panel.tsx';
import { formatFileSize } from '../../lib/file-size.ts';
import { IdentitySection } from '../notarial-act/identity-section.tsx';
import { KbaSection } from '../notarial-act/kba-section.tsx';
import { NotarizedDownloads } from '../notarial-act/notarized-downloads.tsx';
import { ParticipantsPanel } from '../participants/participants-panel.tsx';

const statusLabels: Record<ManageBookingView['status'], string> = {
  draft: 'Not booked',
  held: 'Not booked',
  awaiting_payment: 'Awaiting payment',
  payment_processing: 'Payment processing',
  confirmed: 'Confirmed',
  completed: 'Completed',
  no_show: 'Missed',
  not_completed: 'Not completed',
  cancelled: 'Cancelled',
};

/**
 * The video session's entry: live from 10 minutes before the start (the page
 * re-checks every 15 seconds) until the session is finished. A full page load
 * into the room, whose own Permissions-Policy allows the camera.
 */
function JoinSession({ token, opensAt, liveNow }: { token: string; opensAt: Date; liveNow: boolean }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  const live = liveNow || now >= opensAt.getTime();
  return (
    <div className="mt-5 rounded-lg border border-blue-200 bg-blue-50 p-4">
      <p className="text-slate-800">Your notary meets you by secure video. Have your photo ID ready.</p>
      <div className="mt-3">
        {live ? (
          <Button asChild>
            <a href={`/booking/${encodeURIComponent(token)}/session`}>
              <Video className="h-4 w-4" aria-hidden="true" />
              Join video session
            </a>
          </Button>
        ) : (
          <>
            <Button type="button" disabled aria-describedby="join-later">
              <Video className="h-4 w-4" aria-hidden="true" />
              Join video session
            </Button>
            <p id="join-later" className="mt-2 text-sm text-slate-700">
              {sessionMessages.notOpenYet}
            </p>
          </>
        )}
      </div>
    </div>
  );
}

/** How often the page asks for the act's stage while the session room is open. */
const actStageRefreshMs = 10_000;

/** The customer's private booking page, reached from the email's manage link. */
export function ManageBooking({ token }: { token: string }) {
  const utils = trpc.useUtils();
  // While the room is open the act moves on: its stage is asked again every few seconds (and on every load).
  const query = trpc.manageBooking.get.useQuery({ token }, { retry: false, refetchInterval: (q) => (q.state.data?.canJoinSession ? actStageRefreshMs : false) });
  const setView = (view: ManageBookingView) => {
    utils.manageBooking.get.setData({ token }, view);
    // What the act's panels offer follows the booking (a cancelled one has no identity check to do).
    void utils.manageAct.invalidate();
  };

  if (query.isLoading) return <p className="text-slate-700">Loading your booking…</p>;
  if (query.error || !query.data) {
    return (
      <div role="alert" className="rounded-xl border border-amber-300 bg-amber-50 p-6 text-amber-950">
        <p className="font-semibold">{query.error?.data?.code === 'NOT_FOUND' ? manageMessages.notFound : 'Something went wrong while loading your booking.'}</p>
        <p className="mt-2">
          Need help? Call <a className="underline" href={`tel:${site.phoneHref}`}>{site.phone}</a>.
        </p>
      </div>
    );
  }

  const booking = query.data;
  const when = booking.startsAt ? formatInZone(booking.startsAt, booking.timeZone) : null;
  const event =
    booking.startsAt && booking.status === 'confirmed'
      ? appointmentEvent({ bookingId: booking.id, reference: booking.reference, startsAt: booking.startsAt, host: typeof window === 'undefined' ? '' : window.location.hostname, now: new Date() })
      : null;
  const refunded = booking.payment?.refundedCents ?? 0;

  return (
    // One column that never grows past the phone's width (a long file name is cut with an ellipsis instead).
    <div className="grid grid-cols-1 gap-6">
      <SectionCard title="Appointment">
        <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium text-slate-600">Reference</dt>
          <dd className="font-mono text-slate-900">{booking.reference}</dd>
          <dt className="font-medium text-slate-600">Status</dt>
          <dd>
            <span data-testid="booking-status" className="rounded-full bg-slate-100 px-2.5 py-0.5 text-sm font-semibold text-slate-900">
              {statusLabels[booking.status]}
            </span>
          </dd>
          <dt className="font-medium text-slate-600">Date and time</dt>
          <dd className="text-slate-900" data-testid="booking-time">
            {when ? (
              <>
                {when.dateTime} <span className="text-slate-600">({when.zone})</span>
              </>
            ) : booking.onDemand === 'in_line' ? (
              'Notarize now: in line for the next notary on duty'
            ) : booking.onDemand === 'timed_out' ? (
              'Notarize now: no notary was free in time. Choose a scheduled time below, or get a full refund in the waiting room.'
            ) : (
              'Not scheduled'
            )}
          </dd>
          {booking.status !== 'cancelled' && (
            <>
              <dt className="font-medium text-slate-600">Notarization</dt>
              <dd className="text-slate-900" data-testid="act-stage">
                {actStageLabels[booking.actStage]}
              </dd>
            </>
          )}
          {booking.contact && (
            <>
              <dt className="font-medium text-slate-600">Your phone</dt>
              <dd className="text-slate-900">{booking.contact.phone}</dd>
            </>
          )}
        </dl>
        {booking.sessionOpensAt && <JoinSession token={token} opensAt={booking.sessionOpensAt} liveNow={booking.canJoinSession} />}
        {event && (
          <div className="mt-5 flex flex-wrap gap-3">
            <CalendarLinks icsHref={calendarDownloadPath(booking.id, token)} reference={booking.reference} event={event} compact />
          </div>
        )}
      </SectionCard>

      <NotarizedDownloads token={token} />
      <IdentitySection token={token} />
      <KbaSection token={token} />
      <ParticipantsPanel
        token={token}
        canAdd={booking.status === 'confirmed' && booking.sessionOpensAt !== null}
        payer={booking.contact ? { name: `${booking.contact.firstName} ${booking.contact.lastName}`.trim(), email: booking.contact.email } : null}
      />

      <SectionCard title="Documents">
        {booking.documents.length === 0 ? (
          <p className="text-slate-700">No documents.</p>
        ) : (
          <ul className="grid grid-cols-1 gap-2">
            {booking.documents.map((doc) => (
              <li key={doc.id} className="flex min-w-0 items-center justify-between gap-3 rounded-md border border-slate-200 px-3 py-2">
                <span className="flex min-w-0 items-center gap-2">
                  <FileText className="h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
                  <span className="truncate text-slate-900">{doc.name}</span>
                  <span className="shrink-0 text-sm text-slate-600">{formatFileSize(doc.sizeBytes)}</span>
                </span>
                <a
                  className="inline-flex shrink-0 items-center gap-1 text-sm font-semibold text-blue-700 underline-offset-4 hover:underline"
                  href={`/api/manage/documents/${doc.id}?token=${encodeURIComponent(token)}`}
                  download={doc.name}
                >
                  <Download className="h-4 w-4" aria-hidden="true" />
                  Download<span className="sr-only"> {doc.name}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </SectionCard>

      <SectionCard title="Payment">
        {booking.payment ? (
          <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
            <dt className="font-medium text-slate-600">Amount paid</dt>
            <dd className="text-slate-900">
              {formatUsd(booking.payment.amountCents)} {booking.payment.currency.toUpperCase()}
            </dd>
            <dt className="font-medium text-slate-600">Method</dt>
            <dd className="text-slate-900">{paymentMethodLabel(booking.payment.method ?? 'card')}</dd>
            {refunded > 0 && (
              <>
                <dt className="font-medium text-slate-600">Refunded</dt>
                <dd className="text-slate-900" data-testid="refunded">
                  {formatUsd(refunded)} {booking.payment.currency.toUpperCase()}
                </dd>
              </>
            )}
            <PriceLineRows lines={booking.priceLines} termClassName="font-medium text-slate-600" />
            {booking.signerPayments
              .filter((fee) => fee.status === 'succeeded' || fee.status === 'refunded')
              .map((fee) => (
                <Fragment key={fee.paymentId}>
                  <dt className="font-medium text-slate-600">Additional signer{fee.name ? `: ${fee.name}` : ''}</dt>
                  <dd className="text-slate-900" data-testid="signer-fee">
                    {formatUsd(fee.amountCents)} {fee.currency.toUpperCase()}, paid separately{fee.refundedCents > 0 ? ` (refunded ${formatUsd(fee.refundedCents)})` : ''}
                  </dd>
                </Fragment>
              ))}
          </dl>
        ) : (
          <p className="text-slate-700">No payment recorded.</p>
        )}
      </SectionCard>

      {(booking.canReschedule || booking.canCancel) && (
        <SectionCard title="Change your appointment" intro={manageMessages.refundPolicy} contentClassName="grid gap-8">
          {booking.canReschedule ? (
            <ReschedulePanel token={token} booking={booking} onChanged={setView} />
          ) : (
            <p className="text-slate-700">{manageMessages.tooLateToMove}</p>
          )}
          {booking.canCancel && <CancelPanel token={token} booking={booking} onChanged={setView} />}
        </SectionCard>
      )}

      <p className="text-slate-700">
        Questions? Call <a className="font-semibold text-blue-700 underline" href={`tel:${site.phoneHref}`}>{site.phone}</a> or write to{' '}
        <a className="font-semibold text-blue-700 underline" href={`mailto:${site.email}`}>{site.email}</a>.
      </p>
    </div>
  );
}
