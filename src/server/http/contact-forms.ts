import express, { type Express, type Request } from 'express';
import { bodyLimit, bodyLimits } from './body-limit.ts';
import { businessInquiryInput, contactInput, waitlistInput } from '../../shared/contact.ts';
import type { Deps } from '../deps.ts';
import { DomainError } from '../errors.ts';
import { consumeRate } from '../rate-limit.ts';
import { businessRate, contactRate, joinWaitlist, submitBusinessInquiry, submitContactMessage, waitlistRate } from '../features/contact/service.ts';

/**
 * The contact forms are server-rendered, so a visitor can send one before the
 * page's script has loaded (or with scripts off). The browser then posts the
 * form itself; these routes take that post through the same service, rate
 * limit and validation as the tRPC calls, and answer with a redirect back to
 * the form, whose `?contact=` / `?inquiry=` / `?waitlist=` value the page shows as the outcome.
 */
// A declared length over the limit is refused from the headers (bodyLimit); a chunked one by the parser.
const parseForm = [bodyLimit(bodyLimits.formPost), express.urlencoded({ extended: false, limit: bodyLimits.formPost })];

type Outcome = 'sent' | 'missing' | 'error';

export function mountContactFormPosts(app: Express, deps: Deps): void {
  app.post('/api/contact', ...parseForm, async (req, res) => {
    const outcome = await handle(deps, req, 'contact');
    res.redirect(303, `/?contact=${outcome}#contact`);
  });
  app.post('/api/business-inquiry', ...parseForm, async (req, res) => {
    const outcome = await handle(deps, req, 'business');
    res.redirect(303, `/business-solutions?inquiry=${outcome}#business-contact`);
  });
  app.post('/api/waitlist', ...parseForm, async (req, res) => {
    const outcome = await handle(deps, req, 'waitlist');
    res.redirect(303, `/document-management?waitlist=${outcome}#waitlist`);
  });
}

const rates = { contact: contactRate, business: businessRate, waitlist: waitlistRate };

async function handle(deps: Deps, req: Request, form: keyof typeof rates): Promise<Outcome> {
  try {
    const rate = await consumeRate(deps, rates[form], req.ip ?? 'unknown');
    if (!rate.allowed) return 'error';
    const body: unknown = req.body ?? {};
    if (form === 'contact') {
      const input = contactInput.safeParse(body);
      if (!input.success) return 'missing';
      await submitContactMessage(deps, input.data);
    } else if (form === 'business') {
      const input = businessInquiryInput.safeParse(body);
      if (!input.success) return 'missing';
      await submitBusinessInquiry(deps, input.data);
    } else {
      const input = waitlistInput.safeParse(body);
      if (!input.success) return 'missing';
      await joinWaitlist(deps, input.data);
    }
    return 'sent';
  } catch (error) {
    if (error instanceof DomainError && error.code === 'BAD_REQUEST') return 'missing';
    deps.log.error({ err: error, form }, 'form post failed');
    return 'error';
  }
}
