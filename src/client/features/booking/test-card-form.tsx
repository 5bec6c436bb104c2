import { FlaskConical } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import {
  formatCardNumber,
  formatExpiry,
  validateCard,
  type CardErrors,
  type CardFields,
  type PaymentAttempt,
  type PaymentReceipt,
} from '../../../shared/payments.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { FieldError, Label } from '../../components/ui/label.tsx';
import { trpc } from '../../lib/trpc.ts';
import { errorMessage, isClientError } from '../../lib/errors.ts';

export interface PaymentFormProps {
  bookingId: string;
  defaultName: string;
  defaultEmail: string;
  /** The payment went through (or is processing): show the receipt. */
  onReceipt: (receipt: PaymentReceipt) => void;
  /** The provider refused: shown inline here and as a toast by the caller. */
  onFailure: (message: string) => void;
  /** Another payment than the booking's own (a co-signer's fee, decision 125); default: the booking's price. */
  charge?: (card: CardFields) => Promise<PaymentAttempt>;
  /** Stripe: asks the server how that other payment stands; default: the booking's (`payments.sync`). */
  sync?: () => Promise<PaymentReceipt | null>;
  /** Stripe: where a redirecting method comes back to; default: the wizard. */
  returnPath?: string;
}

const fieldDefs: { name: keyof CardFields; label: string; autoComplete: string; inputMode?: 'numeric' | 'email'; placeholder?: string }[] = [
  { name: 'number', label: 'Card number', autoComplete: 'cc-number', inputMode: 'numeric', placeholder: 'The 16 digits on your card' },
  { name: 'expiry', label: 'Expiration date (MM / YY)', autoComplete: 'cc-exp', inputMode: 'numeric', placeholder: 'MM / YY' },
  { name: 'cvc', label: 'Security code (CVC)', autoComplete: 'cc-csc', inputMode: 'numeric', placeholder: '3 or 4 digits' },
  { name: 'name', label: 'Name on card', autoComplete: 'cc-name' },
  { name: 'email', label: 'Email', autoComplete: 'email', inputMode: 'email' },
];

/**
 * The built-in test provider's card form (no Stripe keys configured). It is
 * labelled as test mode everywhere it appears; the server judges the card.
 */
export function TestCardForm({ bookingId, defaultName, defaultEmail, onReceipt, onFailure, charge }: PaymentFormProps) {
  const formId = useId();
  const [values, setValues] = useState<CardFields>({ number: '', expiry: '', cvc: '', name: defaultName, email: defaultEmail });
  const [errors, setErrors] = useState<CardErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = trpc.payments.confirmTestCard.useMutation();
  const [charging, setCharging] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateCard(values, new Date());
    setErrors(found);
    const first = fieldDefs.find((f) => found[f.name]);
    if (first) {
      document.getElementById(`${formId}-${first.name}`)?.focus();
      return;
    }
    setFailure(null);
    setCharging(true);
    try {
      const attempt = charge ? await charge(values) : await confirm.mutateAsync({ bookingId, ...values });
      if (!attempt.error) return onReceipt(attempt.receipt);
      setFailure(attempt.error);
      onFailure(attempt.error);
    } catch (error) {
      const message = isClientError(error) ? errorMessage(error, 'Payment failed') : errorMessage(error);
      setFailure(message);
      onFailure(message);
    } finally {
      setCharging(false);
    }
  }

  function change(name: keyof CardFields, raw: string) {
    const value = name === 'number' ? formatCardNumber(raw) : name === 'expiry' ? formatExpiry(raw) : name === 'cvc' ? raw.replace(/\D/g, '').slice(0, 4) : raw;
    setValues((current) => ({ ...current, [name]: value }));
    if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4" aria-label="Card payment (test mode)">
      <div className="flex gap-3 rounded-lg border-2 border-amber-500 bg-amber-50 p-4 text-amber-950" role="note">
        <FlaskConical className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
        <div className="grid gap-1 text-sm">
          <p className="font-bold tracking-wide">TEST MODE — no real payment is taken</p>
          <p>
            Use card <strong>4242 4242 4242 4242</strong> with any future date and any CVC to pay. Card{' '}
            <strong>4000 0000 0000 0002</strong> shows a declined payment.
          </p>
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-6">
        {fieldDefs.map((field) => {
          const id = `${formId}-${field.name}`;
          const errorId = `${id}-error`;
          const span = field.name === 'number' || field.name === 'name' || field.name === 'email' ? 'sm:col-span-6' : 'sm:col-span-3';
          return (
            <div key={field.name} className={`grid gap-1 ${span}`}>
              <Label htmlFor={id}>{field.label}</Label>
              <Input
                id={id}
                name={field.name}
                autoComplete={field.autoComplete}
                inputMode={field.inputMode}
                placeholder={field.placeholder}
                type={field.name === 'email' ? 'email' : 'text'}
                value={values[field.name]}
                aria-invalid={errors[field.name] ? true : undefined}
                aria-describedby={errors[field.name] ? errorId : undefined}
                aria-required="true"
                onChange={(event) => change(field.name, event.target.value)}
              />
              <FieldError id={errorId}>{errors[field.name]}</FieldError>
            </div>
          );
        })}
      </div>
      {failure && (
        <p className="rounded-md border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-800" role="alert" data-testid="payment-error">
          {failure}
        </p>
      )}
      <Button type="submit" size="lg" disabled={charging}>
        {charging ? 'Processing...' : 'Pay Now'}
      </Button>
    </form>
  );
}
