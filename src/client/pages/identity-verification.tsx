import { ArrowRight, Camera, IdCard, ListChecks, Lock, ScanFace, Timer } from 'lucide-react';
import { Link } from 'react-router-dom';
import { CtaBand, FeatureGrid, HeroIllustration, PageHero, Section, SectionHeading, StepList } from '../components/marketing/sections.tsx';
import { Reveal } from '../components/marketing/reveal.tsx';
import type { RouteHandle } from '../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({
    title: 'Identity Verification',
    description:
      'Verify identity remotely with ID credential analysis, a live selfie match and knowledge-based questions. The same checks that protect every remote notarization.',
    path: '/identity-verification',
  }),
};

const features = [
  { icon: IdCard, title: 'ID credential analysis', text: 'Security features, barcode data and expiry of driver’s licenses, state IDs and passports are checked automatically.' },
  { icon: ScanFace, title: 'Selfie match', text: 'A live selfie is compared with the photo on the ID to confirm the person holding it is its owner.' },
  { icon: ListChecks, title: 'Knowledge-based questions', text: 'A short timed quiz drawn from public records confirms what only the real person should know.' },
  { icon: Timer, title: 'Results in minutes', text: 'Most verifications finish in about two minutes, with a clear pass or fail.' },
  { icon: Lock, title: 'Private by design', text: 'Identity data is encrypted, kept only as long as the law requires, and never sold.' },
  { icon: Camera, title: 'Any device with a camera', text: 'Verify from a phone or computer; no app or special hardware needed.' },
];

const steps = [
  { title: 'Upload your ID', text: 'Capture the front and back of a current government-issued photo ID.' },
  { title: 'Take a selfie', text: 'A quick live photo is matched against the ID portrait.' },
  { title: 'Answer a few questions', text: 'Answer knowledge-based questions generated from public records.' },
  { title: 'Instant verification', text: 'The result is returned immediately, ready for your notarization or your team.' },
];

const useCases = [
  { to: '/remote-notarization', title: 'Remote notarization', text: 'Identity proofing that satisfies state remote notarization laws before every session.' },
  { to: '/electronic-signatures', title: 'Electronic signatures', text: 'Add a verified identity to high-value e-signatures for stronger evidence.' },
  { to: '/schedule', title: 'Book a notary session', text: 'Verify your identity as part of a session scheduled at a time that suits you.' },
  { to: '/business-solutions', title: 'Business onboarding', text: 'Have customers, tenants or contractors notarize remotely, their identity verified before each session.' },
];

export function Component() {
  return (
    <main id="main">
      <PageHero
        aside={<HeroIllustration name="identity-verification" alt="A photo ID card next to a phone taking a matching live selfie, verified" />}
        eyebrow="Identity verification"
        title="Know Who Is Signing, Without Meeting in Person"
        lead="Multi-factor identity verification combines ID checks, a selfie match and knowledge-based questions, so every remote signature is backed by a verified person."
      />
      <Section labelledBy="features-heading">
        <SectionHeading id="features-heading" title="Layered checks, one smooth experience" />
        <FeatureGrid features={features} />
      </Section>
      <Section labelledBy="steps-heading" tone="muted">
        <SectionHeading id="steps-heading" eyebrow="How it works" title="Verified in four steps" />
        <StepList steps={steps} />
      </Section>
      <Section labelledBy="uses-heading">
        <SectionHeading id="uses-heading" title="Use cases" intro="Where verified identity makes the difference." />
        <ul className="mt-12 grid gap-6 sm:grid-cols-2">
          {useCases.map((useCase, index) => (
            <Reveal as="li" index={index} key={useCase.to}>
              <Link
                to={useCase.to}
                className="group flex h-full flex-col rounded-xl border border-slate-200 p-6 shadow-sm hover:border-blue-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
              >
                <h3 className="text-lg font-semibold text-slate-900">{useCase.title}</h3>
                <p className="mt-2 flex-1 text-slate-600">{useCase.text}</p>
                <span className="mt-4 inline-flex items-center gap-1 font-semibold text-blue-700">
                  Learn more <ArrowRight aria-hidden="true" className="h-4 w-4 transition-transform group-hover:translate-x-1" />
                </span>
              </Link>
            </Reveal>
          ))}
        </ul>
      </Section>
      <CtaBand title="Verify and notarize in one session" text="Identity verification is included in every remote notarization." />
    </main>
  );
}
