import { CalendarClock, Clock, FileStack, Globe2, ShieldCheck, Video } from 'lucide-react';
import { Link } from 'react-router-dom';
import { CtaBand, Faq, FeatureGrid, HeroIllustration, PageHero, Section, SectionHeading, StepList } from '../components/marketing/sections.tsx';
import { buttonVariants } from '../components/ui/button-variants.ts';
import type { RouteHandle } from '../lib/meta.ts';
import { usePublicConfig } from '../lib/public-config.tsx';
import { formatUsd } from '../../shared/money.ts';
import { maxDocumentsPerBooking } from '../../shared/booking-rules.ts';

export const handle: RouteHandle = {
  // "24/7" only when the notaries' hours cover the week (decision 096), as on the home page.
  meta: ({ config }) => ({
    title: 'Remote Online Notarization',
    description: `Have documents notarized by a commissioned notary over secure video${config?.serviceHours.allHours ? ', 24/7' : ''}. Several documents in one session at no extra cost, valid in all 50 states.`,
    path: '/remote-notarization',
  }),
};

const hoursFeature = (allHours: boolean, hoursText: string) =>
  allHours
    ? { icon: Clock, title: 'Available 24/7', text: 'Notarization around the clock, every day of the year, including weekends and holidays.' }
    : { icon: Clock, title: 'Real hours, shown as they are', text: `Notaries are available ${hoursText}; the times you can book are the times a notary works.` };

const features = [
  { icon: FileStack, title: 'Multiple documents, one session', text: `Upload up to ${maxDocumentsPerBooking} documents; they are all covered by one session at no extra cost.` },
  { icon: Video, title: 'Recorded for your protection', text: 'Each session is recorded and securely retained as state law requires, so your notarization can be proven.' },
  { icon: ShieldCheck, title: 'Tamper-evident seal', text: 'Your notarized PDF carries the notary’s electronic seal and a digital certificate that reveals any later change.' },
  { icon: Globe2, title: 'Valid in all 50 states', text: 'Remote notarizations by our commissioned notaries are recognized across the United States.' },
  { icon: CalendarClock, title: 'Book in minutes', text: 'Choose a time that suits you, shown in your own time zone, and pay securely online.' },
];

const steps = [
  { title: 'Upload documents', text: 'Add your PDF, JPEG or PNG files, up to 10 MB each. Leave every signature line blank.' },
  { title: 'Schedule a time', text: 'Pick a 30-minute slot and pay the flat session fee online.' },
  { title: 'Verify your identity', text: 'Before your session, choose Verify your identity on your booking page: a photo of your ID and a matching selfie.' },
  { title: 'Sign and notarize by video', text: 'Join the secure video session from your booking page and sign while the notary watches; the notary seals the document and you download it from the same page.' },
];

const faq = [
  {
    question: 'What documents can be notarized remotely?',
    answer:
      'Most documents that need an acknowledgment or a jurat: affidavits, powers of attorney, vehicle and property forms, employment and school forms, and many real estate documents. Wills and some court filings have special rules; check with the recipient if you are unsure.',
  },
  {
    question: 'Does it cost more to notarize several documents?',
    answer: 'No. One session covers every document you upload for it, whether that is one page or a full closing package.',
  },
  {
    question: 'Do I have to book a time?',
    answer:
      'There are two ways to be served. Book a scheduled time that suits you, or, while a notary is on duty, choose Notarize now: upload and pay, then wait in our online lobby, which shows your place in line and where you verify your identity meanwhile, until the next notary accepts your call. If nobody can take it in time you choose a scheduled time or a full refund. When nobody is on duty, Notarize now says so before you pay.',
  },
  {
    question: 'What do I need for the session?',
    answer:
      'A current government-issued photo ID, a device with a camera and microphone, and an internet connection of at least 1 Mbps. Uploading your documents 24 hours ahead gives the notary time to prepare.',
  },
  {
    question: 'How does the session happen?',
    answer:
      'After booking you verify your identity online from your booking page (the link is in your confirmation email). From 10 minutes before your start time, choose Join video session on the same page to meet your notary by secure video. You sign while the notary watches, the notary adds their electronic seal, and your notarized PDF is ready under Download notarized document, with a secure link emailed to you.',
  },
  {
    question: 'Will the receiving party accept an electronically notarized document?',
    answer:
      'Remote online notarizations are recognized throughout the United States, and most banks, courts, agencies and companies accept them. Some county recorders and foreign authorities have extra requirements, so ask the recipient if you are unsure.',
  },
];

export function Component() {
  const { baseFeeCents, serviceHours, serviceHoursText } = usePublicConfig();
  const allHours = serviceHours.allHours;
  return (
    <main id="main">
      <PageHero
        aside={<HeroIllustration name="remote-notarization" alt="A signer and a notary on a video session, next to a document with a notary seal" />}
        eyebrow="Remote online notarization"
        title={allHours ? 'Notarize Documents Online, Any Time, Day or Night' : 'Notarize Documents Online by Secure Video'}
        lead={`A commissioned notary meets you by secure video, ${allHours ? '24/7' : serviceHoursText}. Upload up to ${maxDocumentsPerBooking} documents: they are all covered by one ${formatUsd(baseFeeCents)} session at no extra cost.`}
      >
        <Link to="/schedule" className={buttonVariants({ variant: 'inverse', size: 'lg' })}>
          Schedule a Notary
        </Link>
        <Link to="/blog/how-remote-online-notarization-works" className={`${buttonVariants({ size: 'lg' })} border border-white/70 bg-transparent hover:bg-blue-900`}>
          Read how it works
        </Link>
      </PageHero>

      <Section labelledBy="features-heading">
        <SectionHeading id="features-heading" title="Why notarize online with us" intro="The same legal result as visiting a notary in person, without the trip." />
        <FeatureGrid features={[hoursFeature(allHours, serviceHoursText), ...features]} />
      </Section>

      <Section labelledBy="steps-heading" tone="muted">
        <SectionHeading id="steps-heading" eyebrow="How it works" title="Four steps to a notarized document" />
        <StepList steps={steps} />
      </Section>

      <Section labelledBy="faq-heading">
        <SectionHeading id="faq-heading" title="Frequently asked questions" />
        <Faq items={faq} />
      </Section>

      <CtaBand
        title={allHours ? 'Ready when you are, 24/7' : 'Ready when you are'}
        text="Book a session now and have your documents notarized today."
        secondary={{ to: '/identity-verification', label: 'How we verify identity' }}
      />
    </main>
  );
}
