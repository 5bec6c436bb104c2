import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { FieldError, Label } from '../../components/ui/label.tsx';
import { trpc } from '../../lib/trpc.ts';
import { unexpectedErrorMessage } from '../../lib/errors.ts';
import type { PaymentFormProps } from './test-card-form.tsx';

/**
 * Stripe's Payment Element (card and Cash App Pay, as the server's
 * PaymentIntent allows). This module is only imported in Stripe mode, so
 * Stripe.js is never fetched when the test provider is in use.
 */

let stripePromise: Promise<Stripe | null> | null = null;
/** Loads Stripe.js once per page; a failure lets the next attempt try again. */
export function getStripe(publishableKey: string): Promise<Stripe | null> {
  stripePromise ??= loadStripe(publishableKey).catch((error: unknown) => {
    stripePromise = null;
    throw error;
  });
  return stripePromise;
}

export const stripeNotReadyMessage = 'Stripe has not been initialized yet';
const detailsErrorMessage = 'An error occurred with your payment details';

export function StripePaymentForm(props: PaymentFormProps & { stripe: Promise<Stripe | null>; clientSecret: string }) {
  return (
    <Elements
      stripe={props.stripe}
      options={{
        clientSecret: props.clientSecret,
        appearance: { theme: 'stripe', variables: { colorPrimary: '#1d4ed8', colorDanger: '#b91c1c', fontFamily: 'Inter, system-ui, sans-serif' } },
      }}
    >
      <CheckoutForm {...props} />
    </Elements>
  );
}

function CheckoutForm({ bookingId, defaultName, defaultEmail, onReceipt, onFailure, sync: syncOther, returnPath }: PaymentFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const formId = useId();
  const [name, setName] = useState(defaultName);
  const [email, setEmail] = useState(defaultEmail);
  const [errors, setErrors] = useState<{ name?: string; email?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [elementReady, setElementReady] = useState(false);
  const sync = trpc.payments.sync.useMutation();

  function fail(message: string) {
    setFailure(message);
    onFailure(message);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements) return fail(stripeNotReadyMessage);
    const found: typeof errors = {};
    if (!name.trim()) found.name = 'Name on card is required';
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) found.email = 'Please enter a valid email address';
    setErrors(found);
    if (found.name || found.email) return;

    setSubmitting(true);
    setFailure(null);
    try {
      // Form validation first (docs/product.md §4.7), then confirm without a forced redirect.
      const { error: submitError } = await elements.submit();
      if (submitError) return fail(submitError.message ?? detailsErrorMessage);
      const returnUrl = new URL(returnPath ?? '/schedule', window.location.origin);
      if (!returnPath) returnUrl.searchParams.set('booking', bookingId);
      const { error } = await stripe.confirmPayment({
        elements,
        confirmParams: {
          return_url: returnUrl.toString(),
          payment_method_data: { billing_details: { name: name.trim(), email: email.trim() } },
        },
        redirect: 'if_required',
      });
      if (error) return fail(error.message ?? 'Payment failed');
      // The browser's word is not proof: the server asks Stripe how the payment stands.
      const receipt = syncOther ? await syncOther() : await sync.mutateAsync({ bookingId });
      if (!receipt) return fail('Payment failed');
      onReceipt(receipt);
    } catch {
      fail(unexpectedErrorMessage);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4" aria-label="Payment details">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1">
          <Label htmlFor={`${formId}-name`}>Name</Label>
          <Input
            id={`${formId}-name`}
            autoComplete="name"
            value={name}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? `${formId}-name-error` : undefined}
            onChange={(event) => {
              setName(event.target.value);
              setErrors((current) => ({ ...current, name: undefined }));
            }}
          />
          <FieldError id={`${formId}-name-error`}>{errors.name}</FieldError>
        </div>
        <div className="grid gap-1">
          <Label htmlFor={`${formId}-email`}>Email</Label>
          <Input
            id={`${formId}-email`}
            type="email"
            autoComplete="email"
            value={email}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? `${formId}-email-error` : undefined}
            onChange={(event) => {
              setEmail(event.target.value);
              setErrors((current) => ({ ...current, email: undefined }));
            }}
          />
          <FieldError id={`${formId}-email-error`}>{errors.email}</FieldError>
        </div>
      </div>
      {!elementReady && (
        <p className="text-sm text-slate-700" role="status">
          Please wait while we connect to Stripe...
        </p>
      )}
      <PaymentElement
        onReady={() => setElementReady(true)}
        options={{
          layout: 'tabs',
          // Name and email come from the fields above and go along with the payment method.
          fields: { billingDetails: { name: 'never', email: 'never' } },
        }}
      />
      {failure && (
        <p className="rounded-md border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-800" role="alert" data-testid="payment-error">
          {failure}
        </p>
      )}
      <Button type="submit" size="lg" disabled={!stripe || !elements || submitting}>
        {submitting ? 'Processing...' : 'Pay Now'}
      </Button>
    </form>
  );
}
