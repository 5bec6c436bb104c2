import { Check, FolderLock, History, Search, Share2, ShieldCheck, UploadCloud } from 'lucide-react';
import { Link } from 'react-router-dom';
import { site } from '../../shared/site.ts';
import { CtaBand, Faq, FeatureGrid, HeroIllustration, PageHero, Section, SectionHeading, StepList } from '../components/marketing/sections.tsx';
import { buttonVariants } from '../components/ui/button-variants.ts';
import { cx } from '../lib/cx.ts';
import type { RouteHandle } from '../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({
    title: 'Document Management',
    description:
      'Store, organize and share notarized and signed documents securely. Plans from $9.99/month with 5GB, Business Pro with 50GB, and Enterprise with unlimited storage.',
    path: '/document-management',
  }),
};

const features = [
  { icon: FolderLock, title: 'Encrypted storage', text: 'Documents are encrypted in transit and at rest, in private storage only you and your team can reach.' },
  { icon: Search, title: 'Find anything fast', text: 'Search by name, signer, date or tag, and keep folders organized by client or matter.' },
  { icon: Share2, title: 'Share with control', text: 'Send expiring links instead of attachments, and revoke access at any time.' },
  { icon: History, title: 'Version history', text: 'See every version of a document and who changed it, with the notarized original always preserved.' },
  { icon: ShieldCheck, title: 'Seal verification', text: 'Check at a glance that a notarized file’s digital seal is intact.' },
  { icon: UploadCloud, title: 'Automatic filing', text: 'Documents notarized or signed with us are saved to your account automatically.' },
];

const steps = [
  { title: 'Choose a plan', text: 'Pick the storage that fits you; upgrade or cancel whenever you like.' },
  { title: 'Upload or notarize', text: 'Upload existing files or let notarized documents file themselves.' },
  { title: 'Organize and share', text: 'Tag, search and share securely with the people who need each document.' },
];

interface Plan {
  name: string;
  price: string;
  period?: string;
  storage: string;
  description: string;
  perks: string[];
  popular?: boolean;
  cta: { label: string; href: string };
}

const plans: Plan[] = [
  {
    name: 'Personal Documents',
    price: '$9.99',
    period: '/month',
    storage: '5GB storage',
    description: 'For individuals keeping important papers safe.',
    perks: ['5GB of encrypted storage', 'Automatic filing of notarized documents', 'Secure sharing links', 'Email support'],
    cta: { label: 'Get Started', href: `mailto:${site.salesEmail}?subject=${encodeURIComponent('Personal Documents plan')}` },
  },
  {
    name: 'Business Pro',
    price: '$29.99',
    period: '/month',
    storage: '50GB storage',
    description: 'For small teams handling documents every day.',
    perks: ['50GB of encrypted storage', 'Team folders and permissions', 'Version history and audit trail', 'Priority support'],
    popular: true,
    cta: { label: 'Get Started', href: `mailto:${site.salesEmail}?subject=${encodeURIComponent('Business Pro plan')}` },
  },
  {
    name: 'Enterprise',
    price: 'Custom pricing',
    storage: 'Unlimited storage',
    description: 'For organizations with volume, compliance and integration needs.',
    perks: ['Unlimited storage', 'Single sign-on and retention policies', 'API and workflow integration', 'Dedicated account manager'],
    cta: { label: 'Contact Sales', href: '/business-solutions' },
  },
];

const faq = [
  { question: 'Can I change plans later?', answer: 'Yes. You can move between Personal Documents and Business Pro at any time; the new price applies from your next billing date.' },
  { question: 'What happens to my documents if I cancel?', answer: 'You can download everything before you cancel, and we keep your files for 30 days afterwards in case you change your mind.' },
  { question: 'Are documents notarized with you included automatically?', answer: 'Yes. With any plan, documents notarized or signed through NotaryOnline are filed in your account.' },
];

export function Component() {
  return (
    <main id="main">
      <PageHero
        aside={<HeroIllustration name="document-management" alt="Colour-coded folders and notarized documents secured with a padlock" />}
        eyebrow="Document management"
        title="Keep Every Signed and Notarized Document Safe and Easy to Find"
        lead="Secure, searchable storage for your most important documents, with sharing that stays under your control."
      >
        <a href="#plans" className={buttonVariants({ variant: 'inverse', size: 'lg' })}>
          See Plans
        </a>
        <Link to="/schedule" className={buttonVariants({ variant: 'outline-inverse', size: 'lg' })}>
          Schedule a Notary
        </Link>
      </PageHero>

      <Section labelledBy="features-heading">
        <SectionHeading id="features-heading" title="Built for documents that matter" />
        <FeatureGrid features={features} />
      </Section>

      <Section id="plans" labelledBy="plans-heading" tone="muted">
        <SectionHeading id="plans-heading" eyebrow="Plans" title="Simple, transparent pricing" intro="Every plan includes encryption, secure sharing and automatic filing." />
        <ul className="mt-12 grid gap-8 lg:grid-cols-3">
          {plans.map((plan) => (
            <li
              key={plan.name}
              className={cx(
                'relative flex flex-col rounded-2xl bg-white p-8 shadow-sm ring-1',
                plan.popular ? 'ring-2 ring-blue-700' : 'ring-slate-200',
              )}
            >
              {plan.popular && (
                <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-blue-700 px-3 py-1 text-xs font-bold uppercase tracking-wide text-white">
                  Most Popular
                </p>
              )}
              <h3 className="text-xl font-bold text-slate-900">{plan.name}</h3>
              <p className="mt-2 text-slate-600">{plan.description}</p>
              <p className="mt-6">
                <span className="text-4xl font-extrabold text-slate-900">{plan.price}</span>
                {plan.period && <span className="text-slate-600">{plan.period}</span>}
              </p>
              <p className="mt-1 font-semibold text-blue-700">{plan.storage}</p>
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
                  <span className="sr-only"> with {plan.name}</span>
                </Link>
              ) : (
                <a href={plan.cta.href} className={cx(buttonVariants({ variant: plan.popular ? 'default' : 'outline' }), 'mt-8')}>
                  {plan.cta.label}
                  <span className="sr-only"> with {plan.name}</span>
                </a>
              )}
            </li>
          ))}
        </ul>
      </Section>

      <Section labelledBy="steps-heading">
        <SectionHeading id="steps-heading" eyebrow="How it works" title="Up and running in three steps" />
        <StepList steps={steps} />
      </Section>

      <Section labelledBy="faq-heading" tone="muted">
        <SectionHeading id="faq-heading" title="Frequently asked questions" />
        <Faq items={faq} />
      </Section>

      <CtaBand title="Have a document to notarize today?" text="Book a session and your notarized document can be the first one in your new account." />
    </main>
  );
}
