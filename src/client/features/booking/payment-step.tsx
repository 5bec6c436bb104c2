import type { Stripe } from '@stripe/stripe-js';
import { AlertCircle, Loader2 } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { BookingView } from '../../../shared/booking.ts';
import { holdExpiredMessage } from '../../../shared/booking-rules.ts';
import { formatInZone } from '../../../shared/time.ts';
import { formatUsd } from '../../../shared/money.ts';
import type { PaymentReceipt, PaymentSetup } from '../../../shared/payments.ts';
import { Button } from '../../components/ui/button.tsx';
import { dismissToast, toast } from '../../components/ui/toast.tsx';
import { usePublicConfig } from '../../lib/public-config.tsx';
import { trpc } from '../../lib/trpc.ts';
import { errorMessage } from '../../lib/errors.ts';
import { PaymentReceiptView } from './payment-receipt.tsx';
import { PriceLines } from '../../components/price-lines.tsx';
import { TestCardForm } from './test-card-form.tsx';

// Stripe's React bindings and Stripe.js load only in Stripe mode, only on this step.
const StripePaymentForm = lazy(() => import('./stripe-payment-form.tsx').then((m) => ({ default: m.StripePaymentForm })));

/** docs/product.md §4.7: the completion callback fires 2 seconds after the receipt shows. */
export const completionDelayMs = 2000;
const pendingPollMs = 4000;

type Phase =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; setup: PaymentSetup; stripe: Promise<Stripe | null> | null }
  | { kind: 'receipt'; receipt: PaymentReceipt };

export interface PaymentStepProps {
  booking: BookingView;
  /** Stripe came back through return_url with this payment: look it up before offering a form. */
  returnedFromProvider: boolean;
  onPaid: () => Promise<void>;
  onHoldLost: (message: string) => void;
}

const settled = (receipt: PaymentReceipt | null): receipt is PaymentReceipt =>
  !!receipt && (receipt.status === 'succeeded' || receipt.status === 'processing');

export function PaymentStep({ booking, returnedFromProvider, onPaid, onHoldLost }: PaymentStepProps) {
  const config = usePublicConfig();
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  // mutateAsync is stable across renders; the mutation objects are not.
  const createIntent = trpc.payments.createIntent.useMutation().mutateAsync;
  const sync = trpc.payments.sync.useMutation().mutateAsync;
  const started = useRef(false);
  const receiptHeading = useRef<HTMLHeadingElement>(null);
  const failureToasts = useRef<number[]>([]);
  const contact = booking.contact;

  useEffect(() => {
    // Once per mount (StrictMode runs effects twice in development).
    if (started.current) return;
    started.current = true;
    void (async () => {
      const hasPayment = booking.status === 'payment_processing' || returnedFromProvider || settled(booking.payment as PaymentReceipt | null);
      if (hasPayment) {
        try {
          const receipt = await sync({ bookingId: booking.id });
          if (settled(receipt)) return setPhase({ kind: 'receipt', receipt });
        } catch {
          // fall through to a fresh payment form
        }
      }
      let setup: PaymentSetup;
      try {
        setup = await createIntent({ bookingId: booking.id });
      } catch (error) {
        const message = errorMessage(error, '');
        if (message === holdExpiredMessage) return onHoldLost(message);
        return setPhase({
          kind: 'error',
          message: message ? `Failed to create payment intent: ${message}` : 'Failed to initialize payment system',
        });
      }
      if (setup.mode === 'test') return setPhase({ kind: 'ready', setup, stripe: null });
      if (!setup.clientSecret) return setPhase({ kind: 'error', message: 'No client secret returned from the server' });
      try {
        if (!config.stripePublishableKey) throw new Error('no publishable key');
        const { getStripe } = await import('./stripe-payment-form.tsx');
        const stripe = getStripe(config.stripePublishableKey);
        if (!(await stripe)) throw new Error('Stripe.js did not load');
        setPhase({ kind: 'ready', setup, stripe });
      } catch {
        setPhase({ kind: 'error', message: 'Failed to initialize payment system' });
      }
    })();
  }, [booking, returnedFromProvider, config.stripePublishableKey, createIntent, sync, onHoldLost]);

  const receipt = phase.kind === 'receipt' ? phase.receipt : null;

  // The receipt first; 2 s later the completion: toast, then the confirmation step.
  useEffect(() => {
    if (!receipt) return;
    receiptHeading.current?.focus();
    if (receipt.status === 'succeeded') {
      const timer = setTimeout(() => {
        toast({ title: 'Payment processed successfully!', variant: 'success' });
        void onPaid();
      }, completionDelayMs);
      return () => clearTimeout(timer);
    }
    // Cash App Pay can stay 'processing' for a while: ask the server until it settles.
    const timer = setInterval(() => {
      void sync({ bookingId: booking.id }).then(
        (next) => next && next.status !== receipt.status && setPhase({ kind: 'receipt', receipt: next }),
        () => {},
      );
    }, pendingPollMs);
    return () => clearInterval(timer);
  }, [receipt, booking.id, onPaid, sync]);

  function onReceipt(next: PaymentReceipt) {
    // A retry went through: an earlier "Payment failed" no longer holds and must not sit above the success.
    if (next.status === 'succeeded' || next.status === 'processing') {
      for (const id of failureToasts.current.splice(0)) dismissToast(id);
    }
    setPhase({ kind: 'receipt', receipt: next });
  }

  function onFailure(message: string) {
    failureToasts.current.push(toast({ title: 'Payment failed', description: message, variant: 'destructive' }));
  }

  const when = booking.startsAt ? formatInZone(booking.startsAt, booking.timeZone) : null;
  const documentCount = booking.documents.length;

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="order-2 lg:order-1">
        {phase.kind === 'loading' && (
          <div className="flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-white p-10 text-center" role="status">
            <Loader2 className="h-8 w-8 animate-spin text-blue-700 motion-reduce:animate-none" aria-hidden="true" />
            <p className="font-semibold text-slate-900">Initializing payment system</p>
            <p className="text-sm text-slate-700">Please wait while we connect to Stripe...</p>
          </div>
        )}
        {phase.kind === 'error' && (
          <div className="flex flex-col items-center gap-3 rounded-xl border border-red-300 bg-red-50 p-8 text-center" role="alert">
            <AlertCircle className="h-8 w-8 text-red-700" aria-hidden="true" />
            <p className="font-semibold text-red-900">{phase.message}</p>
            <Button variant="outline" onClick={() => window.location.reload()}>
              Try Again
            </Button>
          </div>
        )}
        {phase.kind === 'ready' &&
          (phase.stripe && phase.setup.clientSecret ? (
            <Suspense
              fallback={
                <p className="text-sm text-slate-700" role="status">
                  Please wait while we connect to Stripe...
                </p>
              }
            >
              <StripePaymentForm
                stripe={phase.stripe}
                clientSecret={phase.setup.clientSecret}
                bookingId={booking.id}
                defaultName={contact ? `${contact.firstName} ${contact.lastName}` : ''}
                defaultEmail={contact?.email ?? ''}
                onReceipt={onReceipt}
                onFailure={onFailure}
              />
            </Suspense>
          ) : (
            <TestCardForm
              bookingId={booking.id}
              defaultName={contact ? `${contact.firstName} ${contact.lastName}` : ''}
              defaultEmail={contact?.email ?? ''}
              onReceipt={onReceipt}
              onFailure={onFailure}
            />
          ))}
        {phase.kind === 'receipt' && <PaymentReceiptView receipt={phase.receipt} headingRef={receiptHeading} />}
      </div>

      <aside className="order-1 h-fit rounded-xl border border-slate-200 bg-slate-50 p-5 lg:order-2" aria-labelledby="payment-summary-heading">
        <h3 id="payment-summary-heading" className="font-semibold text-slate-900">
          Order summary
        </h3>
        <p className="mt-1 text-sm text-slate-700">Online Notary Service</p>
        <PriceLines lines={booking.priceLines} className="mt-3" />
        <p className="mt-3 text-3xl font-bold text-slate-900" data-testid="payment-amount">
          {formatUsd(booking.priceCents)} <span className="text-base font-medium text-slate-600">USD</span>
        </p>
        <p className="mt-3 text-sm font-medium text-slate-800">Your payment covers:</p>
        <ul className="mt-1 grid list-disc gap-1 pl-5 text-sm text-slate-700">
          <li>{when ? `Your notary video session on ${when.full}` : 'Your notary video session'}</li>
          <li>
            Notarization of every uploaded document ({documentCount} {documentCount === 1 ? 'document' : 'documents'})
          </li>
          {booking.participants.length > 0 && (
            <li>Your own invitation to the session for {booking.participants.map((p) => `${p.name} (${p.role === 'signer' ? 'co-signer' : 'witness'})`).join(', ')}</li>
          )}
          <li>Identity verification</li>
          <li>Electronic delivery of your notarized documents</li>
        </ul>
        {booking.holdExpiresAt && phase.kind !== 'receipt' && (
          <p className="mt-3 text-sm text-slate-700">
            Your time is reserved until {formatInZone(booking.holdExpiresAt, booking.timeZone).time} ({formatInZone(booking.holdExpiresAt, booking.timeZone).zone}).
          </p>
        )}
      </aside>
    </div>
  );
}
