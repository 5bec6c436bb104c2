import { Loader2 } from 'lucide-react';
import { use, type ComponentType } from 'react';
import type { StepId } from './steps.ts';

/**
 * The wizard's later steps, each its own chunk: a first visit renders only the
 * Documents step, so react-day-picker (Booking), the card forms (Payment) and
 * the confirmation are fetched when the visitor heads there — preloaded when
 * they hover or focus a step's tab, start working in the step before it, or
 * finish it (the wizard waits for the chunk before switching, so no fallback
 * flashes). A returning visitor resuming at a later step sees the fallback
 * for the moment the chunk takes.
 */
const loaders = {
  booking: () => import('./booking-step.tsx'),
  contact: () => import('./contact-step.tsx'),
  payment: () => import('./payment-step.tsx'),
  confirm: () => import('./confirm-step.tsx'),
};

type LazyStep = keyof typeof loaders;
type StepModule<S extends LazyStep> = Awaited<ReturnType<(typeof loaders)[S]>>;
/** A promise carrying its outcome, the form React's `use` reads synchronously once settled. */
type Tracked<T> = Promise<T> & { status?: 'fulfilled' | 'rejected'; value?: T; reason?: unknown };
const loading = new Map<LazyStep, Tracked<unknown>>();

function load<S extends LazyStep>(step: S): Tracked<StepModule<S>> {
  let promise = loading.get(step);
  if (!promise) {
    const tracked: Tracked<unknown> = loaders[step]();
    tracked.then(
      (value) => Object.assign(tracked, { status: 'fulfilled', value }),
      (reason) => {
        Object.assign(tracked, { status: 'rejected', reason });
        // A failed fetch is not remembered: the next hover, or rendering the step again, retries.
        loading.delete(step);
      },
    );
    loading.set(step, tracked);
    promise = tracked;
  }
  return promise as Tracked<StepModule<S>>;
}

/** Starts fetching a step's code; resolves when it is ready (never rejects: rendering the step reports a failure). */
export function preloadStep(step: StepId): Promise<void> {
  if (step === 'documents') return Promise.resolve();
  return load(step).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * Unlike React.lazy (which suspends on its first render even when the chunk
 * is already here, and React may then show the fallback for up to 300 ms), a
 * preloaded step renders at once: `use` reads the settled promise directly.
 */
function lazyStep<S extends LazyStep, P extends object>(step: S, pick: (module: StepModule<S>) => ComponentType<P>): ComponentType<P> {
  return function Step(props: P) {
    const Component = pick(use(load(step) as Promise<StepModule<S>>));
    return <Component {...props} />;
  };
}

export const BookingStep = lazyStep('booking', (m) => m.BookingStep);
export const ContactStep = lazyStep('contact', (m) => m.ContactStep);
export const PaymentStep = lazyStep('payment', (m) => m.PaymentStep);
export const ConfirmStep = lazyStep('confirm', (m) => m.ConfirmStep);

export function StepLoading() {
  return (
    <div className="flex min-h-48 items-center gap-3 rounded-xl border border-slate-200 bg-white p-8" role="status">
      <Loader2 className="h-5 w-5 animate-spin text-blue-700 motion-reduce:animate-none" aria-hidden="true" />
      <span>Loading...</span>
    </div>
  );
}
