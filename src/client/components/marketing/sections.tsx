import type { LucideIcon } from 'lucide-react';
import { ArrowRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { cx } from '../../lib/cx.ts';
import { buttonVariants } from '../ui/button-variants.ts';
import { Reveal } from './reveal.tsx';

/** Building blocks shared by the home page and the five marketing pages. */

export function SectionHeading({ eyebrow, title, intro, id, invert = false }: { eyebrow?: string; title: string; intro?: ReactNode; id?: string; invert?: boolean }) {
  return (
    <div className="mx-auto max-w-3xl text-center">
      {eyebrow && <p className={cx('text-sm font-semibold uppercase tracking-wider', invert ? 'text-blue-100' : 'text-blue-700')}>{eyebrow}</p>}
      <h2 id={id} className={cx('mt-2 text-3xl font-bold tracking-tight sm:text-4xl', invert ? 'text-white' : 'text-slate-900')}>
        {title}
      </h2>
      {intro && <p className={cx('mt-4 text-lg', invert ? 'text-blue-50' : 'text-slate-600')}>{intro}</p>}
    </div>
  );
}

export function PageHero({
  eyebrow,
  title,
  lead,
  children,
  aside,
}: {
  eyebrow: string;
  title: string;
  lead: string;
  children?: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <section className="bg-gradient-to-br from-blue-900 via-blue-800 to-blue-700 text-white">
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-2 lg:px-8">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wider text-blue-100">{eyebrow}</p>
          <h1 className="mt-3 text-4xl font-extrabold tracking-tight sm:text-5xl">{title}</h1>
          <p className="mt-6 max-w-xl text-lg text-blue-50">{lead}</p>
          <div className="mt-8 flex flex-wrap gap-4">
            {children ?? (
              <Link to="/schedule" className={buttonVariants({ variant: 'inverse', size: 'lg' })}>
                Schedule a Notary
              </Link>
            )}
          </div>
        </div>
        {aside && <div className="hidden lg:block">{aside}</div>}
      </div>
    </section>
  );
}

/** The page's hero picture (drawn by scripts/build-images.ts), sized like the home page's: 560×440, 2× for sharp screens. */
export function HeroIllustration({ name, alt }: { name: string; alt: string }) {
  const srcSet = (type: 'avif' | 'webp') => `/images/heroes/${name}-560.${type} 560w, /images/heroes/${name}.${type} 1120w`;
  const sizes = '(min-width: 1280px) 560px, 45vw';
  return (
    <picture>
      <source type="image/avif" srcSet={srcSet('avif')} sizes={sizes} />
      <source type="image/webp" srcSet={srcSet('webp')} sizes={sizes} />
      {/* Lazy: the hero column is hidden below 1024 px, so phones never download it. */}
      <img src={`/images/heroes/${name}-560.webp`} alt={alt} width={560} height={440} loading="lazy" decoding="async" className="h-auto w-full" />
    </picture>
  );
}

export interface Feature {
  icon: LucideIcon;
  title: string;
  text: string;
}

export function FeatureGrid({ features, columns = 3 }: { features: Feature[]; columns?: 2 | 3 }) {
  return (
    <ul className={cx('mt-12 grid gap-6 sm:grid-cols-2', columns === 3 && 'lg:grid-cols-3')}>
      {features.map((feature, index) => (
        <Reveal as="li" index={index} key={feature.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <span className="inline-flex h-12 w-12 items-center justify-center rounded-lg bg-blue-50 text-blue-700">
            <feature.icon aria-hidden="true" className="h-6 w-6" />
          </span>
          <h3 className="mt-4 text-lg font-semibold text-slate-900">{feature.title}</h3>
          <p className="mt-2 text-slate-600">{feature.text}</p>
        </Reveal>
      ))}
    </ul>
  );
}

export interface Step {
  title: string;
  text: string;
}

export function StepList({ steps }: { steps: Step[] }) {
  return (
    <ol className={cx('mt-12 grid gap-8 sm:grid-cols-2', steps.length === 4 ? 'lg:grid-cols-4' : 'lg:grid-cols-3')}>
      {steps.map((step, index) => (
        <Reveal as="li" index={index} key={step.title} className="relative rounded-xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200">
          <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-blue-700 text-lg font-bold text-white" aria-hidden="true">
            {index + 1}
          </span>
          <h3 className="mt-4 text-lg font-semibold text-slate-900">
            <span className="sr-only">Step {index + 1}: </span>
            {step.title}
          </h3>
          <p className="mt-2 text-slate-600">{step.text}</p>
        </Reveal>
      ))}
    </ol>
  );
}

export interface FaqItem {
  question: string;
  answer: string;
}

/** Native <details>: works before hydration and with every assistive technology. */
export function Faq({ items }: { items: FaqItem[] }) {
  return (
    <div className="mx-auto mt-10 max-w-3xl divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
      {items.map((item) => (
        <details key={item.question} className="group p-6">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded text-left text-lg font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-blue-700 [&::-webkit-details-marker]:hidden">
            {item.question}
            <span aria-hidden="true" className="text-2xl leading-none text-blue-700 transition-transform group-open:rotate-45">
              +
            </span>
          </summary>
          <p className="mt-3 text-slate-600">{item.answer}</p>
        </details>
      ))}
    </div>
  );
}

export function Section({ id, labelledBy, tone = 'white', children, className }: { id?: string; labelledBy: string; tone?: 'white' | 'muted'; children: ReactNode; className?: string }) {
  return (
    <section id={id} aria-labelledby={labelledBy} className={cx(tone === 'muted' ? 'bg-slate-50' : 'bg-white', 'focus:outline-none', className)}>
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 md:py-24 lg:px-8">{children}</div>
    </section>
  );
}

export function CtaBand({ title, text, secondary }: { title: string; text: string; secondary?: { to: string; label: string } }) {
  return (
    <section aria-labelledby="cta-heading" className="bg-blue-800">
      <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6">
        <h2 id="cta-heading" className="text-3xl font-bold text-white">
          {title}
        </h2>
        <p className="mt-4 text-lg text-blue-50">{text}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-4">
          <Link to="/schedule" className={buttonVariants({ variant: 'inverse', size: 'lg' })}>
            Schedule a Notary <ArrowRight aria-hidden="true" className="h-5 w-5" />
          </Link>
          {secondary && (
            <Link to={secondary.to} className={buttonVariants({ variant: 'outline-inverse', size: 'lg' })}>
              {secondary.label}
            </Link>
          )}
        </div>
      </div>
    </section>
  );
}
