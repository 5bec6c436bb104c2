import { Building2, Briefcase, Car, Clock, GraduationCap, HeartPulse, Landmark, Mail, Phone, Scale, Users, Workflow, FileStack, Home } from 'lucide-react';
import { site } from '../../shared/site.ts';
import { CtaBand, FeatureGrid, HeroIllustration, PageHero, Section, SectionHeading } from '../components/marketing/sections.tsx';
import { inquiryForm } from '../features/contact/deferred-forms.tsx';
import { islandProps } from '../server-html.ts';
import { Reveal } from '../components/marketing/reveal.tsx';
import type { RouteHandle } from '../lib/meta.ts';
import { maxDocumentsPerBooking } from '../../shared/booking-rules.ts';


/** The server renders the real form; the browser fetches its code when the visitor nears it. */
export async function loader() {
  if (import.meta.env.SSR) await inquiryForm.preload();
  return null;
}

export const handle: RouteHandle = {
  meta: () => ({
    title: 'Business Solutions',
    description:
      'Remote notarization for businesses: sessions for your team and clients, many documents per session, and a business team to plan volume with you, for real estate, legal, finance, HR and more.',
    path: '/business-solutions',
  }),
};

const industries = [
  { icon: Home, title: 'Real estate and title', text: 'Closings, deeds, affidavits and lien releases signed from anywhere.' },
  { icon: Scale, title: 'Legal', text: 'Affidavits, declarations and powers of attorney for clients near and far.' },
  { icon: Landmark, title: 'Banking and lending', text: 'Loan documents, account forms and payoff letters without branch visits.' },
  { icon: Users, title: 'Human resources', text: 'Employment verifications and onboarding forms for remote hires.' },
  { icon: HeartPulse, title: 'Healthcare', text: 'Medical consents, records releases and advance directive forms.' },
  { icon: Car, title: 'Automotive', text: 'Title transfers and odometer statements where electronic notarization is accepted.' },
  { icon: GraduationCap, title: 'Education', text: 'Enrollment, residency and financial-aid affidavits for students and families.' },
  { icon: Building2, title: 'Property management', text: 'Lease guarantees and tenant affidavits without office appointments.' },
];

// Each block says what is there today (issue 30's copy review): no API, no account storage and
// no invoicing exist, so those are offered as a conversation with the business team, not as features.
const solutions = [
  {
    icon: Briefcase,
    title: 'Enterprise notary services',
    text: 'Your team and your clients book sessions online, any time; our business team is your one contact for planning and questions.',
  },
  {
    icon: Workflow,
    title: 'Workflow integration',
    text: 'There is no self-service API yet. Tell us how documents move through your systems and we will tell you what we can set up together.',
  },
  {
    icon: FileStack,
    title: 'Document management',
    text: 'Every notarized PDF is sealed with the notary’s digital certificate and delivered by private link. Storage for teams is on our waiting list.',
  },
  {
    icon: Clock,
    title: 'Bulk processing',
    text: `Up to ${maxDocumentsPerBooking} documents in one session. For regular volume, talk to our business team about how to plan it.`,
  },
];

/** Sample testimonials: illustrative of typical clients, not quotes from named customers. */
const testimonials = [
  {
    quote: 'Our out-of-state sellers used to lose a day to find a notary. Now they sign from their kitchen table and we close on schedule.',
    who: 'Closing manager, regional title company',
  },
  {
    quote: 'We batch a week of affidavits into one session. The paralegals got back hours every week.',
    who: 'Operations lead, litigation law firm',
  },
  {
    quote: 'Remote hires complete their notarized onboarding forms on their first morning, wherever they live.',
    who: 'HR director, healthcare staffing agency',
  },
];

export function Component() {
  return (
    <main id="main">
      <PageHero
        aside={<HeroIllustration name="business-solutions" alt="An office building beside a stack of sealed documents and a rising chart" />}
        eyebrow="Business solutions"
        title="Notarization That Scales With Your Business"
        lead="From a handful of affidavits a month to thousands of closing documents, we give your team and your clients fast, compliant remote notarization."
      >
        <a href="#business-contact" className="inline-flex h-12 items-center justify-center rounded-md bg-white px-7 text-base font-semibold text-blue-800 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white">
          Talk to Sales
        </a>
      </PageHero>

      <Section labelledBy="industries-heading">
        <SectionHeading id="industries-heading" eyebrow="Industries" title="Trusted across industries" />
        <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {industries.map((industry, index) => (
            <Reveal as="li" index={index % 4} key={industry.title} className="rounded-xl border border-slate-200 p-5">
              <industry.icon aria-hidden="true" className="h-6 w-6 text-blue-700" />
              <h3 className="mt-3 font-semibold text-slate-900">{industry.title}</h3>
              <p className="mt-1 text-sm text-slate-600">{industry.text}</p>
            </Reveal>
          ))}
        </ul>
      </Section>

      <Section labelledBy="solutions-heading" tone="muted">
        <SectionHeading id="solutions-heading" eyebrow="Solutions" title="Four ways we support your team" />
        <FeatureGrid features={solutions} columns={2} />
      </Section>

      <Section labelledBy="testimonials-heading">
        <SectionHeading
          id="testimonials-heading"
          eyebrow="Sample client stories"
          title="What teams like yours tell us"
          intro="Illustrative examples based on typical client situations; names are withheld."
        />
        <ul className="mt-12 grid gap-6 lg:grid-cols-3">
          {testimonials.map((t) => (
            <li key={t.who}>
              <figure className="flex h-full flex-col rounded-xl bg-slate-50 p-6 ring-1 ring-slate-200">
                <blockquote className="flex-1 text-slate-700">“{t.quote}”</blockquote>
                <figcaption className="mt-4 text-sm font-semibold text-slate-900">{t.who} (sample)</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="business-contact" labelledBy="business-contact-heading" tone="muted">
        <div className="grid gap-10 lg:grid-cols-5">
          <div className="lg:col-span-2">
            <h2 id="business-contact-heading" className="text-3xl font-bold tracking-tight text-slate-900">
              Tell us about your business
            </h2>
            <p className="mt-4 text-lg text-slate-600">
              Share your volume and the documents you handle, and our sales team will reply within 24 hours on business days.
            </p>
            <ul className="mt-8 space-y-4 text-slate-700">
              <li className="flex items-center gap-3">
                <Mail aria-hidden="true" className="h-5 w-5 text-blue-700" />
                <a href={`mailto:${site.salesEmail}`} className="text-blue-700 underline underline-offset-4 hover:text-blue-800">
                  {site.salesEmail}
                </a>
              </li>
              <li className="flex items-center gap-3">
                <Phone aria-hidden="true" className="h-5 w-5 text-blue-700" />
                <a href={`tel:${site.phoneHref}`} className="text-blue-700 underline underline-offset-4 hover:text-blue-800">
                  {site.phone}
                </a>
              </li>
            </ul>
          </div>
          <div {...islandProps('inquiry-form', {})} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 lg:col-span-3">
            <inquiryForm.Component />
          </div>
        </div>
      </Section>

      <CtaBand title="Need a single notarization today?" text="Anyone on your team can book a session in minutes." />
    </main>
  );
}
