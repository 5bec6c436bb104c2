import { TRPCClientError } from '@trpc/client';
import { useId, useState, type FormEvent } from 'react';
import { contactInput, contactMessages, hasRequiredContactFields, honeypotField } from '../../../shared/contact.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input, Textarea } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { api } from '../../lib/trpc.ts';
import { PhoneField, useEmailField } from './fields.tsx';
import { Honeypot, formValues } from './honeypot.tsx';
import { PostedOutcomeNotice, useHydrated, usePostedOutcome } from './posted-outcome.tsx';

const fields = ['name', 'email', 'phone', 'message', honeypotField] as const;

/**
 * The home page's contact form (docs/product.md §7.1): idle → sending
 * ('Sending Message...', disabled) → success (fields cleared) or failure.
 */
export function ContactForm() {
  const id = useId();
  const [sending, setSending] = useState(false);
  const email = useEmailField(id, contactInput.shape.email);
  const hydrated = useHydrated();
  // Set by /api/contact when the browser posted the form before this script ran.
  const posted = usePostedOutcome('contact');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form, fields);
    if (!hasRequiredContactFields(values)) {
      toast({ title: contactMessages.missingTitle, description: contactMessages.missingDescription });
      return;
    }
    if (!email.accepts(form, values.email)) return;
    setSending(true);
    try {
      await api.contact.send.mutate(values);
      form.reset();
      toast({ title: contactMessages.successTitle, description: contactMessages.successDescription, variant: 'success' });
    } catch (error) {
      if (error instanceof TRPCClientError && error.message === contactMessages.missingDescription) {
        toast({ title: contactMessages.missingTitle, description: contactMessages.missingDescription });
      } else if (!email.refused(error)) {
        toast({ title: contactMessages.failureTitle, description: contactMessages.failureDescription, variant: 'destructive' });
      }
    } finally {
      setSending(false);
    }
  }

  return (
    <form aria-label="Contact form" data-hydrated={hydrated || undefined} method="post" action="/api/contact" onSubmit={onSubmit} className="relative grid gap-4">
      {posted && <PostedOutcomeNotice outcome={posted} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input id={`${id}-name`} name="name" required autoComplete="name" maxLength={200} />
        </div>
        {email.field('Email')}
      </div>
      <PhoneField idPrefix={id} />
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-message`}>Message</Label>
        <Textarea id={`${id}-message`} name="message" required maxLength={5000} rows={5} />
      </div>
      <Honeypot idPrefix={id} />
      <Button type="submit" size="lg" disabled={sending} className="justify-self-start">
        {sending ? contactMessages.sending : 'Send Message'}
      </Button>
    </form>
  );
}
