import { useEffect, useState } from 'react';
import { useSearchParams } from '../../lib/router-hooks.tsx';
import { contactMessages } from '../../../shared/contact.ts';

export type PostedOutcome = 'sent' | 'missing' | 'error';

/**
 * The outcome of a form the browser posted itself, before the page's script
 * ran: the server redirects back with `?contact=` or `?inquiry=` (see
 * src/server/http/contact-forms.ts). Rendered on the server too.
 */
export function usePostedOutcome(param: 'contact' | 'inquiry' | 'waitlist'): PostedOutcome | null {
  // In the browser the form may be an island on a root of its own, outside the router
  // (docs/decisions/051): the address is read directly; it is the router's.
  const value = import.meta.env.SSR ? useSearchParams()[0].get(param) : new URLSearchParams(window.location.search).get(param);
  return value === 'sent' || value === 'missing' || value === 'error' ? value : null;
}

const texts: Record<PostedOutcome, { title: string; description: string }> = {
  sent: { title: contactMessages.successTitle, description: contactMessages.successDescription },
  missing: { title: contactMessages.missingTitle, description: contactMessages.missingDescription },
  error: { title: contactMessages.failureTitle, description: contactMessages.failureDescription },
};

/** The same titles and descriptions the toasts use, as an announced panel above the form. */
export function PostedOutcomeNotice({ outcome, missingDescription }: { outcome: PostedOutcome; /** What this form requires, when it is not name, email and message. */ missingDescription?: string }) {
  const { title, description: standard } = texts[outcome];
  const description = outcome === 'missing' && missingDescription ? missingDescription : standard;
  const tone = outcome === 'sent' ? 'border-green-300 bg-green-50 text-green-950' : 'border-red-300 bg-red-50 text-red-950';
  return (
    <div role="status" className={`rounded-lg border p-4 ${tone}`}>
      <p className="font-semibold">{title}</p>
      <p className="mt-1 text-sm">{description}</p>
    </div>
  );
}

/**
 * False in the server's HTML and until this component has hydrated. Forms mark
 * themselves with it (`data-hydrated`): before that, a submit is the browser's
 * own post to the fallback route.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
