import { FormSent, useSendState } from './form-sent.tsx';
import { useId, type FormEvent } from 'react';
import { businessInquiryInput, businessInterests, contactMessages, honeypotField } from '../../../shared/contact.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input, Select, Textarea } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { api } from '../../lib/trpc.ts';
import { PhoneField, useEmailField } from './fields.tsx';
import { Honeypot, formValues } from './honeypot.tsx';
import { PostedOutcomeNotice, useHydrated, usePostedOutcome } from './posted-outcome.tsx';

const fields = ['name', 'email', 'company', 'phone', 'interest', 'message', honeypotField] as const;

/**
 * The business solutions form: sent to the server (stored, emailed to sales),
 * then a confirmation promising a reply within 24 hours on business days.
 */
export function BusinessInquiryForm() {
  const id = useId();
  // Set by /api/business-inquiry when the browser posted the form before this script ran.
  const posted = usePostedOutcome('inquiry');
  const { state, setState, confirmation } = useSendState(posted);
  const hydrated = useHydrated();
  const email = useEmailField(id, businessInquiryInput.shape.email);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form, fields);
    if (!email.accepts(form, values.email)) return;
    setState('sending');
    try {
      await api.contact.sendBusiness.mutate(values);
      setState('sent');
    } catch (error) {
      setState('idle');
      if (email.refused(error)) return;
      toast({ title: contactMessages.failureTitle, description: contactMessages.failureDescription, variant: 'destructive' });
    }
  }

  if (state === 'sent') return <FormSent ref={confirmation} title={contactMessages.businessSuccessTitle} description={contactMessages.businessSuccessDescription} />;

  return (
    <form aria-label="Business inquiry form" data-hydrated={hydrated || undefined} method="post" action="/api/business-inquiry" onSubmit={onSubmit} className="relative grid gap-4">
      {posted && posted !== 'sent' && <PostedOutcomeNotice outcome={posted} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-name`}>Full name</Label>
          <Input id={`${id}-name`} name="name" required autoComplete="name" maxLength={200} />
        </div>
        {email.field('Business email')}
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-company`}>
            Company <span className="font-normal text-slate-600">(optional)</span>
          </Label>
          <Input id={`${id}-company`} name="company" autoComplete="organization" maxLength={200} />
        </div>
        <PhoneField idPrefix={id} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-interest`}>
          What are you interested in? <span className="font-normal text-slate-600">(optional)</span>
        </Label>
        <Select id={`${id}-interest`} name="interest" defaultValue="">
          <option value="">Select an option</option>
          {businessInterests.map((interest) => (
            <option key={interest.value} value={interest.value}>
              {interest.label}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-message`}>
          Message <span className="font-normal text-slate-600">(optional)</span>
        </Label>
        <Textarea id={`${id}-message`} name="message" maxLength={5000} rows={5} />
      </div>
      <Honeypot idPrefix={id} />
      <Button type="submit" size="lg" disabled={state === 'sending'} className="justify-self-start">
        {state === 'sending' ? 'Sending...' : 'Send Inquiry'}
      </Button>
    </form>
  );
}
