import { FormSent, useSendState } from './form-sent.tsx';
import { useId, useState, type FormEvent } from 'react';
import { contactMessages, honeypotField, waitlistInput, waitlistMessages, waitlistPlans } from '../../../shared/contact.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input, Select } from '../../components/ui/input.tsx';
import { FieldError, Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { fieldErrorsOf } from '../../lib/errors.ts';
import { api } from '../../lib/trpc.ts';
import { Honeypot, formValues } from './honeypot.tsx';
import { PostedOutcomeNotice, useHydrated, usePostedOutcome } from './posted-outcome.tsx';

const fields = ['name', 'email', 'plan', honeypotField] as const;
type Field = 'name' | 'email' | 'plan';

/**
 * The document storage waiting list (docs/decisions/078): stored and emailed
 * to sales; no account, no payment. Posts as plain HTML to /api/waitlist
 * until its script has hydrated it, like the other marketing forms.
 */
export function WaitlistForm() {
  const id = useId();
  const posted = usePostedOutcome('waitlist');
  const { state, setState, confirmation } = useSendState(posted);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const hydrated = useHydrated();
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form, fields);
    const checked = waitlistInput.safeParse(values);
    if (!checked.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) next[issue.path[0] as Field] ??= issue.message;
      setErrors(next);
      form.querySelector<HTMLElement>(`[name="${Object.keys(next)[0]}"]`)?.focus();
      return;
    }
    setState('sending');
    try {
      await api.contact.joinWaitlist.mutate(checked.data);
      setState('sent');
    } catch (error) {
      setState('idle');
      const byField = fieldErrorsOf(error);
      if (byField && Object.keys(byField).length > 0) {
        setErrors(Object.fromEntries(Object.entries(byField).map(([name, messages]) => [name, messages?.[0]])) as Partial<Record<Field, string>>);
        return;
      }
      toast({ title: contactMessages.failureTitle, description: contactMessages.failureDescription, variant: 'destructive' });
    }
  }

  if (state === 'sent') return <FormSent ref={confirmation} title={waitlistMessages.successTitle} description={waitlistMessages.successDescription} />;

  const fieldProps = (name: Field) => ({
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
    onInput: () => setErrors((current) => ({ ...current, [name]: undefined })),
  });

  return (
    <form aria-label="Document storage waiting list" data-hydrated={hydrated || undefined} method="post" action="/api/waitlist" onSubmit={onSubmit} noValidate={hydrated} className="relative grid gap-4">
      {posted && posted !== 'sent' && <PostedOutcomeNotice outcome={posted} missingDescription="Name, email and plan are required." />}
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input id={`${id}-name`} required autoComplete="name" maxLength={200} {...fieldProps('name')} />
          <FieldError id={`${id}-name-error`}>{errors.name}</FieldError>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-email`}>Email</Label>
          <Input id={`${id}-email`} type="email" required autoComplete="email" maxLength={254} {...fieldProps('email')} />
          <FieldError id={`${id}-email-error`}>{errors.email}</FieldError>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-plan`}>Plan</Label>
          <Select id={`${id}-plan`} required defaultValue="" {...fieldProps('plan')}>
            <option value="">Select a plan</option>
            {waitlistPlans.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </Select>
          <FieldError id={`${id}-plan-error`}>{errors.plan}</FieldError>
        </div>
      </div>
      <Honeypot idPrefix={id} />
      <Button type="submit" size="lg" disabled={state === 'sending'} className="justify-self-start">
        {state === 'sending' ? 'Sending...' : 'Join the waiting list'}
      </Button>
    </form>
  );
}
