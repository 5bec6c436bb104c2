import type { Stripe } from '@stripe/stripe-js';
import { lazy, Suspense, useEffect, useState } from 'react';
import { formatUsd } from '../../../shared/money.ts';
import type { SignerPaymentSetup } from '../../../shared/participants.ts';
import type { PaymentReceipt } from '../../../shared/payments.ts';
import { Button } from '../../components/ui/button.tsx';
import { usePublicConfig } from '../../lib/public-config.tsx';
import { trpc } from '../../lib/trpc.ts';
import { TestCardForm } from '../booking/test-card-form.tsx';

const StripePaymentForm = lazy(() => import('../booking/stripe-payment-form.tsx').then((m) => ({ default: m.StripePaymentForm })));

/**
 * The second payment for a co-signer added from the booking page (decision
 * 125), through the same provider as the booking's: the test card form without
 * Stripe keys, the Payment Element with them. The server adds and invites the
 * signer when the provider says it succeeded (webhook or sync), never on the
 * browser's word; a decline or a closed form adds nobody.
 */
export function SignerPayment({
  token,
  setup,
  name,
  payer,
  onPaid,
  onCancel,
}: {
  token: string;
  setup: SignerPaymentSetup;
  name: string;
  /** The booking's customer, who pays: the card form starts with their name and email. */
  payer: { name: string; email: string } | null;
  onPaid: () => void;
  onCancel: () => void;
}) {
  const config = usePublicConfig();
  const payTest = trpc.payments.signerTestCard.useMutation().mutateAsync;
  const sync = trpc.payments.syncSigner.useMutation().mutateAsync;
  const [stripe, setStripe] = useState<Promise<Stripe | null> | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (setup.mode !== 'stripe' || !config.stripePublishableKey) return;
    void import('../booking/stripe-payment-form.tsx').then((m) => setStripe(m.getStripe(config.stripePublishableKey!)));
  }, [setup.mode, config.stripePublishableKey]);

  const onReceipt = (receipt: PaymentReceipt) => {
    if (receipt.status === 'succeeded') onPaid();
    else if (receipt.status === 'processing') setFailure('Your payment is processing. The signer is invited as soon as it succeeds.');
    else setFailure('Payment failed');
  };
  const common = { bookingId: '', defaultName: payer?.name ?? '', defaultEmail: payer?.email ?? '', onReceipt, onFailure: setFailure };

  return (
    <section className="mb-4 grid gap-3 rounded-lg border border-blue-200 bg-blue-50 p-4" aria-labelledby="signer-payment-heading" data-testid="signer-payment">
      <h3 id="signer-payment-heading" className="font-semibold text-slate-900">
        Pay {formatUsd(setup.amountCents)} to add {name}
      </h3>
      <p className="text-sm text-slate-800">{name} is added and invited once this payment succeeds. If you do not pay, nobody is added.</p>
      {setup.mode === 'test' ? (
        <TestCardForm {...common} charge={(card) => payTest({ token, providerPaymentId: setup.providerPaymentId, ...card })} />
      ) : stripe && setup.clientSecret ? (
        <Suspense fallback={<p role="status">Please wait while we connect to Stripe...</p>}>
          <StripePaymentForm
            {...common}
            stripe={stripe}
            clientSecret={setup.clientSecret}
            sync={() => sync({ token, providerPaymentId: setup.providerPaymentId })}
            returnPath={typeof window === 'undefined' ? undefined : window.location.pathname}
          />
        </Suspense>
      ) : (
        <p role="status">Please wait while we connect to Stripe...</p>
      )}
      {failure && setup.mode !== 'test' && (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      )}
      <div>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Not now
        </Button>
      </div>
    </section>
  );
}
