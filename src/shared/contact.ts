import { isMailSafeEmail, isSingleLine, singleLineMessage } from './fields.ts';
import { z } from 'zod';

/**
 * The contact flows' inputs and visitor-facing messages (docs/product.md
 * §7). Both forms carry a honeypot field that
 * people never see; whatever fills it is a robot.
 */
export const contactMessages = {
  sending: 'Sending Message...',
  successTitle: 'Message sent successfully!',
  successDescription: "We'll get back to you as soon as possible.",
  failureTitle: 'An error occurred',
  failureDescription: 'Could not send your message. Please try again later.',
  missingTitle: 'Please fill in all required fields',
  missingDescription: 'Name, email and message are required.',
  businessSuccessTitle: 'Thank you for your inquiry!',
  businessSuccessDescription: 'Our business team will reply within 24 hours on business days.',
  invalidEmail: 'Please enter a valid email address',
} as const;

/** Field name of the hidden trap; named like a field a form-filling robot completes. */
export const honeypotField = 'website';

export const businessInterests = [
  { value: 'enterprise-notary', label: 'Enterprise Notary Services' },
  { value: 'workflow', label: 'Workflow Integration' },
  { value: 'document', label: 'Document Management' },
  { value: 'bulk', label: 'Bulk Processing' },
  { value: 'other', label: 'Other' },
] as const;
export type BusinessInterest = (typeof businessInterests)[number]['value'];

export function interestLabel(value: string | null | undefined): string {
  return businessInterests.find((i) => i.value === value)?.label ?? 'Not specified';
}

/** first_name = first word, last_name = the remaining words joined by spaces (possibly empty). */
export function splitName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return { firstName: words[0] ?? '', lastName: words.slice(1).join(' ') };
}

/** The "other form" rule: first word of the name, email and message are required. */
export function hasRequiredContactFields(input: { name: string; email: string; message: string }): boolean {
  return splitName(input.name).firstName !== '' && input.email.trim() !== '' && input.message.trim() !== '';
}

// Printable text without line breaks: values that end up in mail headers. Refused, not rewritten.
const singleLine = (max: number, label: string) =>
  z
    .string()
    .max(max)
    .transform((v) => v.trim())
    .refine(isSingleLine, singleLineMessage(label));
const email = z
  .string()
  .max(254)
  .transform((v) => v.trim())
  .refine((v) => v === '' || isMailSafeEmail(v), contactMessages.invalidEmail);
const optional = (max: number, label: string) => singleLine(max, label).optional().default('');
const honeypot = z.string().max(500).optional().default('');

export const contactInput = z.object({
  name: singleLine(200, 'Name'),
  email,
  phone: optional(40, 'Phone'),
  message: z.string().max(5000).transform((v) => v.trim()),
  [honeypotField]: honeypot,
});
export type ContactInput = z.input<typeof contactInput>;

export const businessInquiryInput = z.object({
  name: singleLine(200, 'Name').refine((v) => v !== '', 'Name is required'),
  email: email.refine((v) => v !== '', 'Email is required'),
  company: optional(200, 'Company'),
  phone: optional(40, 'Phone'),
  interest: z.enum(['', ...businessInterests.map((i) => i.value)] as [string, ...string[]]).optional().default(''),
  message: z.string().max(5000).optional().default('').transform((v) => v.trim()),
  [honeypotField]: honeypot,
});
export type BusinessInquiryInput = z.input<typeof businessInquiryInput>;

export function businessInquirySubject(name: string, company: string): string {
  return company ? `Business Solutions Inquiry from ${name} at ${company}` : `Business Solutions Inquiry from ${name}`;
}

/**
 * Document storage in a customer account does not exist yet: its plans take
 * names for a waiting list (stored, emailed to sales), never a payment
 * (docs/decisions/078).
 */
export const waitlistPlans = [
  { value: 'personal', label: 'Personal Documents' },
  { value: 'business-pro', label: 'Business Pro' },
] as const;
export type WaitlistPlan = (typeof waitlistPlans)[number]['value'];

export function waitlistPlanLabel(value: string | null | undefined): string {
  return waitlistPlans.find((p) => p.value === value)?.label ?? 'Not specified';
}

export const waitlistMessages = {
  nameRequired: 'Please enter your name',
  emailRequired: 'Email is required',
  planRequired: 'Please choose a plan',
  successTitle: 'You are on the waiting list',
  successDescription: 'We will email you when document storage opens. Nothing is charged and no account is created until you decide.',
} as const;

export const waitlistInput = z.object({
  name: singleLine(200, 'Name').refine((v) => v !== '', waitlistMessages.nameRequired),
  email: email.refine((v) => v !== '', waitlistMessages.emailRequired),
  plan: z.enum(waitlistPlans.map((p) => p.value) as [WaitlistPlan, ...WaitlistPlan[]], waitlistMessages.planRequired),
  [honeypotField]: honeypot,
});
export type WaitlistInput = z.input<typeof waitlistInput>;

export function waitlistSubject(name: string, plan: string): string {
  return `Document storage waiting list: ${name} (${waitlistPlanLabel(plan)})`;
}
