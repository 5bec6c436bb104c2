import { FileCheck2, History, Mail, PenLine, Scale, Smartphone } from 'lucide-react';
import { CtaBand, Faq, FeatureGrid, HeroIllustration, PageHero, Section, SectionHeading, StepList } from '../components/marketing/sections.tsx';
import type { RouteHandle } from '../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({
    title: 'Electronic Signatures',
    description:
      'Legally binding electronic signatures that comply with the ESIGN Act and UETA. Upload a document, add signature fields, sign and share in minutes.',
    path: '/electronic-signatures',
  }),
};

const features = [
  { icon: Scale, title: 'ESIGN and UETA compliant', text: 'Signatures meet the federal ESIGN Act and the Uniform Electronic Transactions Act adopted across the states.' },
  { icon: History, title: 'Complete audit trail', text: 'Every view, signature and timestamp is recorded, so you can show who signed what and when.' },
  { icon: FileCheck2, title: 'Tamper-evident documents', text: 'Signed PDFs are sealed with a digital certificate that reveals any change made after signing.' },
  { icon: Smartphone, title: 'Sign on any device', text: 'Sign from a phone, tablet or computer in any modern browser: nothing to install.' },
  { icon: Mail, title: 'Delivered to everyone', text: 'Each signer receives a secure link to the completed document by email.' },
  { icon: PenLine, title: 'Notarize when needed', text: 'If a document also needs a notary, move straight into a remote notarization session.' },
];

const steps = [
  { title: 'Upload your document', text: 'Upload a PDF, or a JPEG or PNG of the pages to be signed.' },
  { title: 'Add signature fields', text: 'Mark where each person signs, initials or dates, and add signers by email.' },
  { title: 'Sign and share', text: 'Everyone signs from their own device and the completed, sealed document is shared with all parties.' },
];

const faq = [
  {
    question: 'Is an electronic signature legally binding?',
    answer:
      'Yes, for most documents. The federal ESIGN Act and state UETA laws give electronic signatures the same legal effect as handwritten ones. A few documents, such as wills and certain court and family-law documents, are excluded.',
  },
  {
    question: 'What is the difference between an e-signature and a notarization?',
    answer:
      'An electronic signature shows that someone intended to sign. A notarization adds a commissioned notary who verifies the signer’s identity and witnesses the signature. Some documents need both.',
  },
  {
    question: 'Do signers need an account?',
    answer: 'No. Signers open a secure link from their email and sign in their browser.',
  },
];

export function Component() {
  return (
    <main id="main">
      <PageHero
        aside={<HeroIllustration name="electronic-signatures" alt="A document being signed electronically with a pen, and a confirmation check" />}
        eyebrow="Electronic signatures"
        title="Sign Documents Electronically, Legally and Securely"
        lead="Collect legally binding signatures in minutes instead of days, with a full audit trail and compliance with the ESIGN Act and UETA."
      />
      <Section labelledBy="features-heading">
        <SectionHeading id="features-heading" title="Signatures you can rely on" intro="Everything you need to get documents signed without printing, scanning or posting." />
        <FeatureGrid features={features} />
      </Section>
      <Section labelledBy="steps-heading" tone="muted">
        <SectionHeading id="steps-heading" eyebrow="How it works" title="Signed in three steps" />
        <StepList steps={steps} />
      </Section>
      <Section labelledBy="faq-heading">
        <SectionHeading id="faq-heading" title="Frequently asked questions" />
        <Faq items={faq} />
      </Section>
      <CtaBand
        title="Need it notarized too?"
        text="Book a remote notarization and sign in front of a commissioned notary by video."
        secondary={{ to: '/blog/esign-and-ueta-explained', label: 'ESIGN and UETA explained' }}
      />
    </main>
  );
}
