import type { ComponentType } from 'react';

/**
 * Interactive parts of a server-HTML page, each hydrated on its own when it comes near
 * (page-outlet.tsx). A chunk of its own, asked for with the first island: the map's imports
 * stay off the first load of the pages that have none (the 100 KB budget, decision 040).
 */
export const islands: Record<string, () => Promise<ComponentType<never>>> = {
  'share-buttons': () => import('../marketing/share-buttons.tsx').then((m) => m.ShareButtons),
  // The forms' deferred boundary itself: it hydrates the form once its code is in (defer-until-visible.tsx).
  'contact-form': () => import('../../features/contact/deferred-forms.tsx').then((m) => m.contactForm.Component as ComponentType<never>),
  'inquiry-form': () => import('../../features/contact/deferred-forms.tsx').then((m) => m.inquiryForm.Component as ComponentType<never>),
  'waitlist-form': () => import('../../features/contact/deferred-forms.tsx').then((m) => m.waitlistForm.Component as ComponentType<never>),
  'verify-form': () => import('../../features/verification/verify-form.tsx').then((m) => m.VerifyForm as ComponentType<never>),
};
