import { Award, BadgeCheck, Clock, FileStack, Files, Fingerprint, Lock, Mail, MapPin, PenLine, Phone, ShieldCheck, Star, Video, Zap } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { centsToDecimal, formatUsd } from '../../shared/money.ts';
import { defaultPricing } from '../../shared/pricing.ts';
import { fullAddress, site } from '../../shared/site.ts';
import { openingHoursSpecification, type ServiceHours } from '../../shared/service-hours.ts';
import { contactForm } from '../features/contact/deferred-forms.tsx';
import { islandProps } from '../server-html.ts';
import { scrollToSection } from '../components/marketing/motion.ts';
import { FeatureGrid, Section, SectionHeading, StepList, type Feature, type Step } from '../components/marketing/sections.tsx';
import { buttonVariants } from '../components/ui/button-variants.ts';
import type { RouteHandle } from '../lib/meta.ts';
import { usePublicConfig } from '../lib/public-config.tsx';

/** A transparent 1×1 GIF: the hero's source where its box is hidden. */
const blankPixel = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** "24/7" only when the notaries' hours cover every slot of the week (decision 096). */
const descriptionFor = (hours: ServiceHours) =>
  `Get documents notarized online ${hours.allHours ? '24/7' : 'at a time you book'} by a certified notary over secure video. $25 per session, legally binding in all 50 states, delivered to you electronically.`;

/** Before the server's configuration is known (never on a served page): the business hours' shape. */
const fallbackHours: ServiceHours = { allHours: false, days: [], timeZone: site.businessTimeZone };

/** Search-engine facts of docs/product.md §3.3, from the site configuration and the notaries' hours. */
const legalServiceJsonLd = (hours: ServiceHours) => ({
  '@context': 'https://schema.org',
  '@type': 'LegalService',
  name: site.brand,
  description: descriptionFor(hours),
  email: site.email,
  telephone: site.phoneHref,
  priceRange: '$$',
  address: {
    '@type': 'PostalAddress',
    streetAddress: site.address.street,
    addressLocality: site.address.city,
    addressRegion: site.address.region,
    postalCode: site.address.postalCode,
    addressCountry: site.address.country,
  },
  areaServed: { '@type': 'Country', name: 'United States' },
  ...(hours.allHours ? { openingHours: 'Mo-Su 00:00-23:59' } : {}),
  openingHoursSpecification: openingHoursSpecification(hours),
  aggregateRating: { '@type': 'AggregateRating', ratingValue: site.rating.value, reviewCount: site.rating.count, bestRating: 5 },
  makesOffer: {
    '@type': 'Offer',
    name: 'Remote online notarization session',
    // The markup is static per build; the configured fee is the default in src/shared/pricing.ts.
    price: centsToDecimal(defaultPricing.baseFeeCents),
    priceCurrency: 'USD',
  },
});


/** The server renders the real form; the browser fetches its code when the visitor nears it. */
export async function loader() {
  if (import.meta.env.SSR) await contactForm.preload();
  return null;
}

export const handle: RouteHandle = {
  meta: ({ config }) => {
    const hours = config?.serviceHours ?? fallbackHours;
    return {
      title: hours.allHours ? 'Online Notary Services 24/7' : 'Online Notary Services',
      description: descriptionFor(hours),
      path: '/',
      jsonLd: [legalServiceJsonLd(hours)],
    };
  },
};

const services: Feature[] = [
  {
    icon: Video,
    title: 'Remote Online Notarization',
    text: 'Meet a commissioned notary over live, secure video and get your document notarized without leaving home.',
  },
  {
    icon: PenLine,
    title: 'Electronic Signatures',
    text: 'Sign with legally binding e-signatures that comply with the federal ESIGN Act and state UETA laws.',
  },
  {
    icon: Award,
    title: 'Recorded Video Confirmation',
    text: 'Every session is recorded and securely retained, so your notarization can always be proven.',
  },
  {
    icon: Fingerprint,
    title: 'Identity Verification',
    text: 'Multi-factor identity checks: ID credential analysis, knowledge-based questions and the notary’s live review.',
  },
  {
    icon: Zap,
    title: 'Express Processing',
    text: 'Most sessions take under 15 minutes, and your notarized document is ready to download the moment you finish.',
  },
  {
    icon: FileStack,
    title: 'Bulk Document Processing',
    text: 'Notarize several documents in a single session at no extra cost: ideal for closings, HR files and law firms.',
  },
];

const process: Step[] = [
  {
    title: 'Upload your document',
    text: 'Add the documents you need notarized. PDF works best; Word files and images can be saved as PDF, JPEG or PNG.',
  },
  {
    title: 'Connect and verify',
    text: 'Connect with an available notary and verify your identity by secure video with your government-issued photo ID.',
  },
  {
    title: 'eSign while witnessed',
    text: 'Sign electronically while the notary watches, then the notary adds an electronic seal and signature.',
  },
  {
    title: 'Download instantly',
    text: 'Download your notarized document right away, and receive a secure link to it by email.',
  },
];

const figuresFor = (hours: ServiceHours) => [
  { icon: Files, value: site.stats.documents, label: 'Documents notarized' },
  { icon: MapPin, value: site.stats.states, label: 'States covered' },
  { icon: BadgeCheck, value: 'Certified', label: 'Notaries with background checks' },
  hours.allHours
    ? { icon: Clock, value: '24/7', label: 'Availability, every day of the year' }
    : { icon: Clock, value: `${hours.days.filter((d) => d.length > 0).length} days`, label: 'A week with notaries working' },
  { icon: Lock, value: 'Bank-level', label: 'Security for every document' },
  // Six figures fill the grid evenly in two and in three columns (five left an empty cell).
  { icon: Star, value: `${site.rating.value} / 5`, label: `Average rating from ${site.rating.count} reviews` },
];

export function Component() {
  const { baseFeeCents, serviceHours, serviceHoursText, onDemand } = usePublicConfig();
  const figures = figuresFor(serviceHours);
  const { hash } = useLocation();

  // Arriving from another page via "/#section": scroll once the sections exist.
  useEffect(() => {
    if (hash.length > 1) scrollToSection(decodeURIComponent(hash.slice(1)));
  }, [hash]);

  return (
    // data-scroll-on-arrival: as server HTML, page-outlet.tsx does what the effect above does.
    <main id="main" data-scroll-on-arrival="">
      <section className="bg-gradient-to-br from-blue-900 via-blue-800 to-blue-700 text-white">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-2 lg:px-8">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-blue-50">
              <ShieldCheck aria-hidden="true" className="h-4 w-4" /> Legally binding in all 50 states
            </p>
            <h1 className="mt-6 text-4xl font-extrabold tracking-tight sm:text-5xl lg:text-6xl">
              {serviceHours.allHours ? 'Get Your Documents Notarized Online, 24/7' : 'Get Your Documents Notarized Online'}
            </h1>
            {/* Each claim only when the data makes it true (issue 28): "24/7" from the notaries' hours, "in minutes"
                and "no appointments" from on-demand sessions; otherwise the real hours. */}
            {onDemand ? (
              <p className="mt-6 max-w-xl text-lg text-blue-50" data-testid="service-hours">
                {`Connect with a certified notary by secure video in minutes. No appointments to wait for, no printing: just your ID and your document. Notaries are available ${serviceHoursText}.`}
              </p>
            ) : (
              <p className="mt-6 max-w-xl text-lg text-blue-50" data-testid="service-hours">
                {`Book a time and meet a certified notary by secure video. Notaries are available ${serviceHoursText}. No printing: just your ID and your document.`}
              </p>
            )}
            <div className="mt-8 flex items-center gap-4 rounded-2xl bg-white/10 p-4 sm:inline-flex">
              <span className="shrink-0 whitespace-nowrap rounded-full bg-amber-300 px-3 py-1 text-sm font-bold uppercase tracking-wide text-slate-900">Best Value!</span>
              <p>
                <span className="text-3xl font-extrabold">{formatUsd(baseFeeCents)}</span>{' '}
                <span className="text-blue-50">per session, identity verification and electronic delivery included</span>
              </p>
            </div>
            <div className="mt-8 flex flex-wrap gap-4">
              {/* Notarize now only while a notary is on duty (the config says so, decision 110); a plain link, no code. */}
              {onDemand && (
                <Link to="/schedule?now=1" className={buttonVariants({ variant: 'inverse', size: 'lg' })}>
                  Notarize now
                </Link>
              )}
              <Link to="/schedule" className={buttonVariants({ variant: onDemand ? 'outline-inverse' : 'inverse', size: 'lg' })}>
                Schedule a Notary
              </Link>
              <button
                type="button"
                className={buttonVariants({ variant: 'outline-inverse', size: 'lg' })}
                // As server HTML on a first load, page-outlet.tsx scrolls for `data-scroll-to`.
                data-scroll-to="services"
                onClick={() => scrollToSection('services')}
              >
                Learn More
              </button>
            </div>
          </div>
          <div className="hidden lg:block">
            {/* Shown from lg up only: below that the `<img>` keeps an inline 1-pixel source, so phones
                (where the box is hidden) download nothing (docs/decisions/055). */}
            <picture>
              <source media="(min-width: 64rem)" srcSet="/images/hero-illustration.svg" type="image/svg+xml" />
              <img
                src={blankPixel}
                alt="A signer on a video call with a notary, next to a notarized document with a seal"
                width={560}
                height={440}
                fetchPriority="high"
                className="h-auto w-full"
              />
            </picture>
          </div>
        </div>
      </section>

      <Section id="services" labelledBy="services-heading">
        <SectionHeading
          id="services-heading"
          eyebrow="Our services"
          title="Everything you need to get documents signed and notarized"
          intro="One secure platform for notarization, signatures and identity checks, for individuals and businesses across the United States."
        />
        <FeatureGrid features={services} />
      </Section>

      <Section id="process" labelledBy="process-heading" tone="muted">
        <SectionHeading
          id="process-heading"
          eyebrow="How it works"
          title="Notarized in four simple steps"
          intro="Most sessions take less than 15 minutes from the moment the notary joins."
        />
        <StepList steps={process} />
        <div className="mt-12 text-center">
          <Link to="/schedule" className={buttonVariants({ size: 'lg' })}>
            Schedule a Notary
          </Link>
        </div>
      </Section>

      <Section id="about" labelledBy="about-heading">
        <div className="grid gap-12 lg:grid-cols-2 lg:items-center">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-blue-700">About us</p>
            <h2 id="about-heading" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
              Notarization built for the way people live now
            </h2>
            <p className="mt-4 text-lg text-slate-600">
              {site.brand} was founded in Des Moines, Iowa, to make notarization as easy as a video call. Our notaries are
              commissioned, trained in remote online notarization and background-checked, and they serve signers in every state.
            </p>
            <p className="mt-4 text-lg text-slate-600">
              Every session is protected with bank-level security: encrypted connections, private document storage and a
              tamper-evident digital seal on every notarized file.
            </p>
          </div>
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-2">
            {figures.map((figure) => (
              <div key={figure.label} className="rounded-xl border border-slate-200 bg-slate-50 p-5">
                <dt className="flex items-center gap-2 text-sm text-slate-600">
                  <figure.icon aria-hidden="true" className="h-4 w-4 text-blue-700" />
                  {figure.label}
                </dt>
                <dd className="mt-2 text-2xl font-extrabold text-slate-900">{figure.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </Section>

      <Section id="contact" labelledBy="contact-heading" tone="muted">
        <SectionHeading
          id="contact-heading"
          eyebrow="Contact"
          title="Questions? We’re here to help"
          intro="Send us a message and we’ll get back to you as soon as possible."
        />
        <div className="mt-12 grid gap-10 lg:grid-cols-5">
          <div {...islandProps('contact-form', {})} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 lg:col-span-3">
            <contactForm.Component />
          </div>
          <div className="space-y-6 lg:col-span-2">
            <ContactDetail icon={Mail} title="Email">
              <a href={`mailto:${site.email}`} className="text-blue-700 underline underline-offset-4 hover:text-blue-800">
                {site.email}
              </a>
            </ContactDetail>
            <ContactDetail icon={Phone} title="Phone">
              <a href={`tel:${site.phoneHref}`} className="text-blue-700 underline underline-offset-4 hover:text-blue-800">
                {site.phone}
              </a>
            </ContactDetail>
            <ContactDetail icon={MapPin} title="Office">
              <address className="not-italic">{fullAddress}</address>
              <a href={site.mapsUrl} rel="noopener noreferrer" className="text-blue-700 underline underline-offset-4 hover:text-blue-800">
                View on Google Maps
              </a>
            </ContactDetail>
            <ContactDetail icon={Clock} title="Business hours">
              <p>General inquiries: Monday to Sunday 9:00 AM to 9:00 PM (Central Time)</p>
              <p>Notary services: available 24/7</p>
            </ContactDetail>
          </div>
        </div>
      </Section>
    </main>
  );
}

function ContactDetail({ icon: Icon, title, children }: { icon: typeof Mail; title: string; children: ReactNode }) {
  return (
    <div className="flex gap-4">
      <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-blue-100 text-blue-800">
        <Icon aria-hidden="true" className="h-5 w-5" />
      </span>
      <div className="text-slate-700">
        <h3 className="font-semibold text-slate-900">{title}</h3>
        {children}
      </div>
    </div>
  );
}
