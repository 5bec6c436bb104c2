import { FileCheck2, History, Mail, PenLine, Scale, Smartphone } from 'lucide-react';
import { CtaBand, Faq, FeatureGrid, HeroIllustration, PageHero, Section, SectionHeading, StepList } from '../components/marketing/sections.tsx';
import type { RouteHandle } from '../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({
    title: 'Electronic Signatures',
    description:
      'Legally binding electronic signatures under the ESIGN Act and UETA, made in your remote notarization session and sealed so any later change shows.',
    path: '/electronic-signatures',
  }),
};

// What the product does (issue 30's copy review, issue 29): signing happens in the notary's video
// session; the customer and up to three co-signers or witnesses join the same session, each from
// their own link; there is no stand-alone "send for signature" service.
const features = [
  { icon: Scale, title: 'ESIGN and UETA compliant', text: 'Signatures meet the federal ESIGN Act and the Uniform Electronic Transactions Act adopted across the states.' },
  { icon: History, title: 'A record of every act', text: 'Each session is recorded on video, and the notary’s journal keeps the date, every signer and a fingerprint of the sealed document.' },
  { icon: FileCheck2, title: 'Tamper-evident documents', text: 'Signed PDFs are sealed with the notary’s digital certificate, which reveals any change made after signing.' },
  { icon: Smartphone, title: 'Sign on any device', text: 'Sign from a phone, tablet or computer with a camera, in any modern browser: nothing to install.' },
  { icon: Mail, title: 'Delivered to you', text: 'You download the signed and sealed document from your booking page, and we email you a secure link to it.' },
  { icon: PenLine, title: 'Several signers, one session', text: 'Co-signers and witnesses join the same video session from their own private links, each verifying their own identity, while a commissioned notary watches.' },
];

const steps = [
  { title: 'Upload your document', text: 'Book a session, upload a PDF, or a JPEG or PNG of the pages to be signed, and invite anyone who signs with you or witnesses.' },
  { title: 'Sign by video', text: 'In the session, each signer adopts their own signature and signs where the notary has marked their place.' },
  { title: 'Download the sealed PDF', text: 'The notary seals the document, and you download it from your booking page.' },
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
    question: 'Can two or more people sign the same document?',
    answer:
      'Yes. While booking, or later from your booking page until the session starts, add up to three more people, each as a co-signer or a witness. Each gets an email with their own private link, verifies their own identity and joins the same video session; the notary’s certificate names every signer. The price shown before you pay includes any fee for an additional signer; witnesses are not charged. If the notary has to remove a co-signer before they sign, their fee is refunded in full.',
  },
  {
    question: 'Do I need an account?',
    answer: 'No. Everything happens on your private booking page, reached by the link in your confirmation email.',
  },
];

export function Component() {
  return (
    <main id="main">
      <PageHero
        aside={<HeroIllustration name="electronic-signatures" alt="A document being signed electronically with a pen, and a confirmation check" />}
        eyebrow="Electronic signatures"
        title="Sign Documents Electronically, Legally and Securely"
        lead="Sign your documents electronically in your notary video session: legally binding under the ESIGN Act and UETA, and sealed so any later change shows."
      />
      <Section labelledBy="features-heading">
        <SectionHeading id="features-heading" title="Signatures you can rely on" intro="Signed and notarized without printing, scanning or posting." />
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
