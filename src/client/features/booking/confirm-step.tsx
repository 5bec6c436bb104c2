import { CheckCircle2, FileText, Phone, Video } from 'lucide-react';
import { toast } from '../../components/ui/toast.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { Link } from 'react-router-dom';
import type { BookingView } from '../../../shared/booking.ts';
import { appointmentEvent, calendarDownloadPath } from '../../../shared/calendar.ts';
import { CalendarLinks } from '../../components/calendar-links.tsx';
import { PriceLineRows } from '../../components/price-lines.tsx';
import { formatInZone } from '../../../shared/time.ts';
import { formatUsd } from '../../../shared/money.ts';
import { sessionSteps } from '../../../shared/session-copy.ts';
import { site } from '../../../shared/site.ts';
import { Button } from '../../components/ui/button.tsx';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5">
      <h3 className="mb-2 font-semibold text-slate-900">{title}</h3>
      {children}
    </section>
  );
}

/**
 * Notarize now, paid: the customer is in line. The waiting room is the
 * session page (a whole page load, decision 097), reached with the booking's
 * link, which the server hands over only while the booking is in line.
 */
function WaitingRoomLink({ bookingId }: { bookingId: string }) {
  const link = trpc.onDemand.lobbyLink.useMutation();
  async function go() {
    try {
      const { path } = await link.mutateAsync({ bookingId });
      window.location.assign(path);
    } catch (error) {
      toast({ title: errorMessage(error), variant: 'destructive' });
    }
  }
  return (
    <div className="rounded-xl border border-blue-200 bg-blue-50 p-5 text-blue-950" data-testid="session-notice">
      <p className="font-semibold">You are in line for the next notary on duty.</p>
      <p className="mt-1">Wait in the waiting room: it shows your place in line, and the notary joins you there by video. Have a valid government-issued photo ID ready.</p>
      <Button className="mt-3" size="lg" onClick={() => void go()} disabled={link.isPending}>
        <Video className="h-4 w-4" aria-hidden="true" />
        Go to the waiting room
      </Button>
    </div>
  );
}

/** The confirmation screen of docs/product.md §4.8, filled from the booking record on the server. */
export function ConfirmStep({ booking }: { booking: BookingView }) {
  const when = booking.startsAt ? formatInZone(booking.startsAt, booking.timeZone) : null;
  const paidOn = booking.payment ? formatInZone(booking.payment.createdAt, booking.timeZone) : null;
  const contact = booking.contact;
  const amountCents = booking.payment?.amountCents ?? booking.priceCents;
  const event =
    booking.startsAt &&
    appointmentEvent({
      bookingId: booking.id,
      reference: booking.reference,
      startsAt: booking.startsAt,
      host: typeof window === 'undefined' ? 'notaryonline.us' : window.location.host,
      now: new Date(),
    });

  return (
    <div className="grid gap-5">
      <div className="flex items-center gap-3 rounded-xl border border-green-300 bg-green-50 p-5 text-green-950">
        <CheckCircle2 className="h-8 w-8 shrink-0 text-green-700" aria-hidden="true" />
        <p className="text-lg font-semibold">{booking.kind === 'on_demand' && !booking.startsAt ? 'Your session is paid: you are in line.' : 'Your appointment is booked and paid.'}</p>
      </div>

      <Section title="Payment Receipt">
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
          <dt className="text-slate-600">Service</dt>
          <dd className="text-slate-900">Online Notary Service</dd>
          <PriceLineRows lines={booking.priceLines} termClassName="text-slate-600" />
          <dt className="text-slate-600">Amount paid</dt>
          <dd className="text-slate-900" data-testid="amount-paid">
            {formatUsd(amountCents)} USD
          </dd>
          <dt className="text-slate-600">Transaction ID</dt>
          <dd className="font-mono text-slate-900" data-testid="transaction-id">
            {booking.reference}
          </dd>
          {booking.payment && (
            <>
              <dt className="text-slate-600">Payment ID</dt>
              <dd className="break-all font-mono text-slate-900" data-testid="payment-id">
                {booking.payment.providerPaymentId}
              </dd>
            </>
          )}
          <dt className="text-slate-600">Date</dt>
          <dd className="text-slate-900">{paidOn?.date ?? formatInZone(new Date(), booking.timeZone).date}</dd>
        </dl>
      </Section>

      {booking.kind === 'on_demand' && !booking.startsAt ? (
        <WaitingRoomLink bookingId={booking.id} />
      ) : (
      <div className="rounded-xl border border-blue-200 bg-blue-50 p-5 text-blue-950" data-testid="session-notice">
        <p>
          Your secure video session with a certified notary is booked
          {when ? (
            <>
              {' '}
              for <strong>{when.date}</strong> at <strong>{when.time}</strong> ({when.zone})
            </>
          ) : (
            ' for your scheduled time'
          )}
          . Please have your documents and a valid government-issued photo ID ready.
        </p>
        <ol className="mt-3 list-decimal space-y-1 pl-5">
          {sessionSteps.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ol>
        {contact?.phone && <p className="mt-3 text-sm">If we need to reach you about your appointment, we'll use {contact.phone}.</p>}
      </div>
      )}

      <div className="flex gap-3 rounded-xl border border-amber-300 bg-amber-50 p-5 text-amber-950">
        <Phone className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
        <p>
          Need urgent help? Call us at{' '}
          <a className="font-semibold underline" href={`tel:${site.phoneHref}`}>
            {site.phone}
          </a>
          .
        </p>
      </div>

      <div className="grid gap-5 md:grid-cols-2">
        <Section title="Document Information">
          <p className="text-sm text-slate-700">
            {booking.documents.length} {booking.documents.length === 1 ? 'document' : 'documents'} uploaded
          </p>
          <ul className="mt-2 grid gap-1 text-sm">
            {booking.documents.map((doc) => (
              <li key={doc.id} className="flex items-center gap-2 text-slate-900">
                <FileText className="h-4 w-4 text-slate-600" aria-hidden="true" />
                {doc.name}
              </li>
            ))}
          </ul>
        </Section>
        {when && (
          <Section title="Appointment Time">
            <p className="text-sm text-slate-900">{when.date}</p>
            <p className="text-sm text-slate-900">
              {when.time} ({when.zone})
            </p>
          </Section>
        )}
        <Section title="Contact Information">
          {contact && (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-600">Name</dt>
              <dd className="text-slate-900">
                {contact.firstName} {contact.lastName}
              </dd>
              <dt className="text-slate-600">Email</dt>
              <dd className="break-all text-slate-900">{contact.email}</dd>
              <dt className="text-slate-600">Phone</dt>
              <dd className="text-slate-900">{contact.phone}</dd>
            </dl>
          )}
        </Section>
        {booking.participants.length > 0 && (
          <Section title="Other Signers and Witnesses">
            <ul className="grid gap-1 text-sm text-slate-900" data-testid="confirm-participants">
              {booking.participants.map((p) => (
                <li key={p.id}>
                  {p.name} ({p.role === 'signer' ? 'Co-signer' : 'Witness'}, {p.email}): invited by email with their own link
                </li>
              ))}
            </ul>
          </Section>
        )}
        <Section title="Payment Status">
          <p className="text-sm font-semibold text-green-800">Paid</p>
        </Section>
      </div>

      {contact && (
        <p className="text-slate-700">
          A confirmation email has been sent to <strong>{contact.email}</strong>.
        </p>
      )}

      <div className="flex flex-wrap gap-3">
        {/* Decisions: 'Add to Calendar' downloads the .ics and offers Google and Outlook links. */}
        <CalendarLinks icsHref={calendarDownloadPath(booking.id)} reference={booking.reference} event={event} />
        <Button asChild variant="outline">
          <Link to="/">Return to Home</Link>
        </Button>
      </div>
    </div>
  );
}
