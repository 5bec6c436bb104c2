import { useId, useState, type FormEvent } from 'react';
import { contactSchema, type BookingView, type ContactInput } from '../../../shared/booking.ts';
import { phoneHint } from '../../../shared/session-copy.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { FieldError, Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { trpc } from '../../lib/trpc.ts';
import { fieldErrorsOf, unexpectedErrorMessage } from '../../lib/errors.ts';
import { SignersSection } from './signers-section.tsx';

type Field = keyof ContactInput;
type Errors = Partial<Record<Field, string>>;

const fields: { name: Field; label: string; type: string; autoComplete: string }[] = [
  { name: 'firstName', label: 'First name', type: 'text', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', type: 'text', autoComplete: 'family-name' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'phone', label: 'Phone number', type: 'tel', autoComplete: 'tel' },
];

/** The first message per field, in the words of docs/product.md §4.5 (the same schema the server applies). */
function validate(values: ContactInput): Errors {
  const result = contactSchema.safeParse(values);
  if (result.success) return {};
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return errors;
}

export function ContactStep({ booking, onSaved }: { booking: BookingView; onSaved: () => Promise<void> }) {
  const formId = useId();
  const [values, setValues] = useState<ContactInput>(
    () => booking.contact ?? { firstName: '', lastName: '', email: '', phone: '' },
  );
  const [errors, setErrors] = useState<Errors>({});
  const save = trpc.booking.saveContact.useMutation();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    const first = fields.find((f) => found[f.name]);
    if (first) {
      document.getElementById(`${formId}-${first.name}`)?.focus();
      return;
    }
    try {
      await save.mutateAsync({ bookingId: booking.id, ...values });
      toast({ title: 'Contact information saved!', variant: 'success' });
      await onSaved();
    } catch (error) {
      const serverErrors = fieldErrorsOf(error);
      if (serverErrors) {
        setErrors(Object.fromEntries(Object.entries(serverErrors).map(([k, v]) => [k, v?.[0]])) as Errors);
      }
      toast({ title: unexpectedErrorMessage, variant: 'destructive' });
    }
  }

  return (
    <div className="grid gap-5">
    <form id={`${formId}-form`} noValidate onSubmit={(event) => void submit(event)} className="grid gap-5" aria-label="Contact information">
      <div className="grid gap-5 sm:grid-cols-2">
        {fields.map((field) => {
          const id = `${formId}-${field.name}`;
          const errorId = `${id}-error`;
          const hintId = `${id}-hint`;
          const describedBy = [field.name === 'phone' ? hintId : null, errors[field.name] ? errorId : null].filter(Boolean).join(' ');
          return (
            <div key={field.name} className="grid gap-1">
              <Label htmlFor={id}>{field.label}</Label>
              <Input
                id={id}
                name={field.name}
                type={field.type}
                autoComplete={field.autoComplete}
                value={values[field.name]}
                aria-invalid={errors[field.name] ? true : undefined}
                aria-describedby={describedBy || undefined}
                aria-required="true"
                onChange={(event) => {
                  const value = event.target.value;
                  setValues((current) => ({ ...current, [field.name]: value }));
                  // An error clears as soon as its field is edited (docs/product.md §4.5).
                  if (errors[field.name]) setErrors((current) => ({ ...current, [field.name]: undefined }));
                }}
              />
              {field.name === 'phone' && (
                <p id={hintId} className="text-sm text-slate-600">
                  {phoneHint}
                </p>
              )}
              <FieldError id={errorId}>{errors[field.name]}</FieldError>
            </div>
          );
        })}
      </div>
    </form>
      <SignersSection booking={booking} />
      <div className="flex justify-end">
        {/* Outside the form (the signers' section between has forms of its own), submitting it. */}
        <Button type="submit" form={`${formId}-form`} size="lg" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Continue'}
        </Button>
      </div>
    </div>
  );
}
