import { deferUntilVisible } from '../../components/marketing/defer-until-visible.tsx';

/**
 * The home page's contact form, Business Solutions' inquiry form and Document Management's
 * waiting list, each downloaded when the
 * visitor nears it (defer-until-visible.tsx). Their own module, so that on a first load of
 * either page — hydrated as its server HTML — the form is an island (`contact-form`,
 * `inquiry-form`, `waitlist-form` in layout/page-outlet.tsx) without the page's code (docs/decisions/051).
 */
export const contactForm = deferUntilVisible(() => import('./contact-form.tsx').then((m) => m.ContactForm), {
  anchorId: 'contact',
  fallback: <p className="min-h-96 text-slate-600">Loading the contact form…</p>,
});

export const inquiryForm = deferUntilVisible(() => import('./business-form.tsx').then((m) => m.BusinessInquiryForm), {
  anchorId: 'business-contact',
  fallback: <p className="min-h-96 text-slate-600">Loading the inquiry form…</p>,
});

export const waitlistForm = deferUntilVisible(() => import('./waitlist-form.tsx').then((m) => m.WaitlistForm), {
  anchorId: 'waitlist',
  fallback: <p className="min-h-40 text-slate-600">Loading the waiting list form…</p>,
});
