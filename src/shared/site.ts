/**
 * The business's public facts, in one place: every page, email, receipt and
 * piece of structured data reads them from here.
 */
import { brand, tagline } from './brand.ts';

export const site = {
  brand,
  legalName: 'NotaryOnline LLC',
  tagline,
  email: 'support@notaryonline.us',
  salesEmail: 'sales@notaryonline.us',
  accessibilityEmail: 'accessibility@notaryonline.us',
  privacyEmail: 'privacy@notaryonline.us',
  /** Shown to people; `phoneHref` is for tel: links. */
  phone: '(515) 555-0142',
  phoneHref: '+15155550142',
  address: {
    street: '400 Locust Street, Suite 500',
    city: 'Des Moines',
    region: 'IA',
    postalCode: '50309',
    country: 'US',
  },
  mapsUrl: 'https://www.google.com/maps/search/?api=1&query=400+Locust+Street+Suite+500+Des+Moines+IA+50309',
  /** General inquiries; notary sessions themselves run around the clock. */
  officeHours: 'Monday – Sunday, 9:00 AM – 9:00 PM (Central Time)',
  businessTimeZone: 'America/Chicago',
  rating: { value: 4.9, count: 527 },
  stats: { documents: '100K+', states: '50+' },
} as const;

export const fullAddress = `${site.address.street}, ${site.address.city}, ${site.address.region} ${site.address.postalCode}`;
