import type { z } from 'zod';
import { businessInquiryInput, contactInput, contactMessages as contactTexts, hasRequiredContactFields, honeypotField, splitName, waitlistInput } from '../../../shared/contact.ts';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import type { RateRule } from '../../rate-limit.ts';
import { onContactMessage } from '../notifications/events.ts';
import { createCustomer } from '../booking/service.ts';
import { insertContactMessage } from './repository.ts';

/**
 * Generous for a person (a few messages), useless for a spam run. Per client
 * address, shared by every node and by both ways in (tRPC and the posted form).
 */
export const contactRate: RateRule = { name: 'contact', limit: 5, windowSeconds: 600 };
export const businessRate: RateRule = { name: 'business-inquiry', limit: 5, windowSeconds: 600 };
export const waitlistRate: RateRule = { name: 'waitlist', limit: 5, windowSeconds: 600 };

export type ContactResult = { status: 'sent'; messageId: string } | { status: 'discarded' };

/**
 * The home contact form and the "other form" are one flow (docs/product.md §7.2): the
 * message is stored, a customer row is written (first word = first name,
 * the rest = last name) and staff are emailed — in one transaction, so a
 * stored message always has its email in the outbox and vice versa. Without
 * the fields docs/product.md requires: BAD_REQUEST with the form's message.
 */
export async function submitContactMessage(deps: Deps, input: z.output<typeof contactInput>): Promise<ContactResult> {
  if (input[honeypotField]) {
    // A robot filled the field people never see: say "sent", keep nothing.
    deps.log.info({ form: 'contact' }, 'contact form honeypot filled; discarded');
    return { status: 'discarded' };
  }
  if (!hasRequiredContactFields(input)) throw new DomainError('BAD_REQUEST', contactTexts.missingDescription);
  const { firstName, lastName } = splitName(input.name);
  const phone = input.phone || null;
  const messageId = await deps.db.transaction(async (tx) => {
    const customerId = await createCustomer(tx, { firstName, lastName, email: input.email, phone });
    const id = await insertContactMessage(tx, { kind: 'contact', name: input.name, email: input.email, phone, message: input.message, customerId });
    await onContactMessage(tx, deps, { messageId: id });
    return id;
  });
  return { status: 'sent', messageId };
}

/** Business solutions form: stored (kind 'business') and emailed to sales. */
export async function submitBusinessInquiry(deps: Deps, input: z.output<typeof businessInquiryInput>): Promise<ContactResult> {
  if (input[honeypotField]) {
    deps.log.info({ form: 'business' }, 'business form honeypot filled; discarded');
    return { status: 'discarded' };
  }
  const messageId = await deps.db.transaction(async (tx) => {
    const id = await insertContactMessage(tx, {
      kind: 'business',
      name: input.name,
      email: input.email,
      phone: input.phone || null,
      company: input.company || null,
      interest: input.interest || null,
      message: input.message,
    });
    await onContactMessage(tx, deps, { messageId: id });
    return id;
  });
  return { status: 'sent', messageId };
}

/**
 * Document storage waiting list (docs/decisions/078): a name, an email and the
 * plan wanted, stored (kind 'waitlist', the plan as its interest) and emailed
 * to sales in one transaction. No account, no payment.
 */
export async function joinWaitlist(deps: Deps, input: z.output<typeof waitlistInput>): Promise<ContactResult> {
  if (input[honeypotField]) {
    deps.log.info({ form: 'waitlist' }, 'waitlist form honeypot filled; discarded');
    return { status: 'discarded' };
  }
  const messageId = await deps.db.transaction(async (tx) => {
    const id = await insertContactMessage(tx, { kind: 'waitlist', name: input.name, email: input.email, interest: input.plan, message: '' });
    await onContactMessage(tx, deps, { messageId: id });
    return id;
  });
  return { status: 'sent', messageId };
}
