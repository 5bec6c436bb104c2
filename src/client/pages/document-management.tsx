import { Check, Clock, Download, Mail, ShieldCheck, FolderLock, FileCheck2 } from 'lucide-react';
import { Link } from 'react-router-dom';
import { CtaBand, Faq, FeatureGrid, HeroIllustration, PageHero, Section, SectionHeading, StepList } from '../components/marketing/sections.tsx';
import { buttonVariants } from '../components/ui/button-variants.ts';
import { waitlistForm } from '../features/contact/deferred-forms.tsx';
import { cx } from '../lib/cx.ts';
import type { RouteHandle } from '../lib/meta.ts';
import { usePublicConfig } from '../lib/public-config.tsx';
import { islandProps } from '../server-html.ts';

/**
 * Document management as it really is (docs/decisions/078): there are no
 * customer accounts yet, so nothing is sold. The page says how a notarized
 * document reaches the customer and how long each copy is kept, and the
 * storage plans take names for a waiting list.
 */
export async function loader() {
  if (import.meta.env.SSR) await waitlistForm.preload();
  return null;
}

export const handle: RouteHandle = {
  meta: () => ({
    title: 'Document Management',
    description:
      'How your notarized documents reach you: download them from your private booking page and get a secure link by email. Account storage is coming: join the waiting list.',
    path: '/document-management',
  }),
};

interface Plan {
  name: string;
  storage: string;
  description: string;
  perks: string[];
  popular?: boolean;
  cta: { label: string; href: string };
}

const plans: Plan[] = [
  {
    name: 'Personal Documents',
    storage: '5GB storage',
    description: 'For individuals keeping important papers safe.',
    perks: ['5GB of encrypted storage', 'Your notarized documents kept in one place', 'Secure sharing links'],
    cta: { label: 'Join the waiting list', href: '#waitlist' },
  },
  {
    name: 'Business Pro',
    storage: '50GB storage',
    description: 'For small teams handling documents every day.',
    perks: ['50GB of encrypted storage', 'Team folders and permissions', 'Version history and audit trail'],
    popular: true,
    cta: { label: 'Join the waiting list', href: '#waitlist' },
  },
  {
    name: 'Enterprise',
    storage: 'Unlimited storage',
    description: 'For organizations with volume, compliance and integration needs.',
    perks: ['Storage sized to your volume', 'Retention rules agreed with you', 'Workflow integration'],
    cta: { label: 'Contact Sales', href: '/business-solutions#business-contact' },
  },
];

export function Component() {
  const { documentRetentionDays, notarizedRetentionDays } = usePublicConfig();
  const features = [
    { icon: Download, title: 'Download at once', text: 'As soon as the notary seals your document, it is ready to download as a PDF from your private booking page.' },
    { icon: Mail, title: 'A secure link by email', text: 'We email you when your notarized document is ready, with the private link to your booking page.' },
    { icon: FileCheck2, title: 'A seal you can check', text: 'The notarized PDF carries the notary’s digital signature: any PDF reader shows whether it has changed since it was sealed.' },
    { icon: FolderLock, title: 'Private storage', text: 'Your files sit in private storage, reached only through your private link and by the notary and staff handling your booking.' },
    { icon: Clock, title: 'How long we keep them', text: `Notarized copies: ${notarizedRetentionDays} days. The documents you uploaded: ${documentRetentionDays} days after your booking ends. Then they are deleted.` },
    { icon: ShieldCheck, title: 'Keep your own copy', text: 'There is no account to keep your files for you yet: save the notarized PDF wherever you keep important papers.' },
  ];
  const steps = [
    { title: 'Book and upload', text: 'Upload your documents when you book your session.' },
    { title: 'Notarized by video', text: 'Sign in front of the notary, who seals the document with a digital signature.' },
    { title: 'Download and save', text: `Download the notarized PDF from your booking page or the emailed link within ${notarizedRetentionDays} days, and keep your copy.` },
  ];
  const faq = [
    {
      question: 'Where do I find my notarized document?',
      answer: 'On your private booking page: the link is in your confirmation email, and we email it again when the notarized document is ready. Download it there as a PDF.',
    },
    {
      question: 'How long do you keep my documents?',
      answer: `Notarized copies are kept for ${notarizedRetentionDays} days, so you can download them again. The documents you uploaded are deleted ${documentRetentionDays} days after your booking ends (completed, missed or cancelled).`,
    },
    {
      question: 'Can I store my documents in an account?',
      answer: 'Not yet: there are no customer accounts today, and nothing is sold for them. Join the waiting list and we will email you when document storage opens.',
    },
  ];
  return (
    <main id="main">
      <PageHero
        aside={<HeroIllustration name="document-management" alt="Colour-coded folders and notarized documents secured with a padlock" />}
        eyebrow="Document management"
        title="Your Notarized Documents, Delivered Securely"
        lead="Download your notarized document the moment it is sealed, and get a secure link to it by email. Account storage is coming: join the waiting list."
      >
        <Link to="/schedule" className={buttonVariants({ variant: 'inverse', size: 'lg' })}>
          Schedule a Notary
        </Link>
        <a href="#waitlist" className={buttonVariants({ variant: 'outline-inverse', size: 'lg' })}>
          Join the waiting list
        </a>
      </PageHero>

      <Section labelledBy="features-heading">
        <SectionHeading id="features-heading" title="What happens to your documents today" />
        <FeatureGrid features={features} />
      </Section>

      <Section labelledBy="steps-heading" tone="muted">
        <SectionHeading id="steps-heading" eyebrow="How it works" title="From upload to your notarized copy" />
        <StepList steps={steps} />
      </Section>

      <Section id="plans" labelledBy="plans-heading">
        <SectionHeading
          id="plans-heading"
          eyebrow="Coming soon"
          title="Document storage plans"
          intro="Storage in a customer account is not available yet, and nothing is charged for it. Join the waiting list and we will email you when it opens, with its prices."
        />
        <ul className="mt-12 grid gap-8 lg:grid-cols-3">
          {plans.map((plan) => (
            <li key={plan.name} className={cx('relative flex flex-col rounded-2xl bg-white p-8 shadow-sm ring-1', plan.popular ? 'ring-2 ring-blue-700' : 'ring-slate-200')}>
              <h3 className="text-xl font-bold text-slate-900">{plan.name}</h3>
              <p className="mt-2 text-slate-600">{plan.description}</p>
              <p className="mt-6 font-semibold text-blue-700">{plan.storage}</p>
              <p className="mt-1 text-sm font-semibold uppercase tracking-wide text-slate-600">Not available yet</p>
              <ul className="mt-6 flex-1 space-y-3">
                {plan.perks.map((perk) => (
                  <li key={perk} className="flex gap-2 text-slate-700">
                    <Check aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-blue-700" />
                    {perk}
                  </li>
                ))}
              </ul>
              {plan.cta.href.startsWith('/') ? (
                <Link to={plan.cta.href} className={cx(buttonVariants({ variant: plan.popular ? 'default' : 'outline' }), 'mt-8')}>
                  {plan.cta.label}
                  <span className="sr-only"> about {plan.name}</span>
                </Link>
              ) : (
                <a href={plan.cta.href} className={cx(buttonVariants({ variant: plan.popular ? 'default' : 'outline' }), 'mt-8')}>
                  {plan.cta.label}
                  <span className="sr-only"> for {plan.name}</span>
                </a>
              )}
            </li>
          ))}
        </ul>
        <div id="waitlist" className="mx-auto mt-12 max-w-3xl scroll-mt-24">
          <h3 className="text-xl font-bold text-slate-900">Join the waiting list</h3>
          <p className="mt-2 text-slate-700">Tell us which plan you would like. Our sales team keeps your name and email only to tell you when storage opens.</p>
          <div {...islandProps('waitlist-form', {})} className="mt-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            <waitlistForm.Component />
          </div>
        </div>
      </Section>

      <Section labelledBy="faq-heading" tone="muted">
        <SectionHeading id="faq-heading" title="Frequently asked questions" />
        <Faq items={faq} />
      </Section>

      <CtaBand title="Have a document to notarize today?" text="Book a session and download your notarized document as soon as the notary seals it." />
    </main>
  );
}
