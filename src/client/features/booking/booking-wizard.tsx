import * as Tabs from '@radix-ui/react-tabs';
import { Loader2 } from 'lucide-react';
import { startTransition, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from '../../lib/router-hooks.tsx';
// The zod-free and date-fns-free halves of shared/booking.ts and shared/time.ts: this is the first step's code.
import { holdExpiredMessage } from '../../../shared/booking-rules.ts';
import { businessTimeZone, detectTimeZone } from '../../../shared/zones.ts';
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { toast } from '../../components/ui/toast.tsx';
import { cx } from '../../lib/cx.ts';
import { trpc } from '../../lib/trpc.ts';
import { DocumentsStep } from './documents-step.tsx';
import { errorCode } from '../../lib/errors.ts';
import { BookingStep, ConfirmStep, ContactStep, PaymentStep, preloadStep, StepLoading } from './lazy-steps.tsx';
import { isPaid, parseStep, reachableByHistory, resumeStep, steps, tabEnabled, type StepId } from './steps.ts';
import { addressParams, useBookingId } from './use-booking-id.ts';

export const bookingCancelledMessage = 'This booking was cancelled. You can schedule a new appointment below.';
const stripeReturnParams = ['payment_intent', 'payment_intent_client_secret', 'redirect_status'];

let browserZone: string | undefined;
/**
 * The browser's zone, read once and only when needed: the first
 * Intl.DateTimeFormat loads locale data (~60 ms on a slow phone), which would
 * otherwise lengthen the page's start-up; the Documents step never shows it.
 */
function browserTimeZone(): string {
  return (browserZone ??= detectTimeZone());
}

/**
 * The five-step booking wizard (docs/product.md §4.1). The booking
 * record on the server is the source of truth: every step writes to it, and a
 * visitor who reloads or comes back from Stripe resumes where it says.
 */
export function BookingWizard() {
  const { bookingId, fromUrl, ready, remember, forget } = useBookingId();
  const [searchParams, setSearchParams] = useSearchParams();
  const [returnedFromProvider] = useState(() => searchParams.has('payment_intent'));
  const [step, setStep] = useState<StepId | null>(null);
  const [timeZone, setTimeZone] = useState<string | null>(null);
  const resolvedFor = useRef<string | null>(null);
  const focusNext = useRef(false);
  // Each step is a history entry (?step=…): Back, Forward and reload work as in any site.
  const urlStep = parseStep(searchParams.get('step'));
  const seenUrlStep = useRef(urlStep);
  /** How the next step change is written to the URL: a new entry, or (when the wizard decides where to start) in place. */
  const historyMode = useRef<'push' | 'replace'>('replace');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const utils = trpc.useUtils();
  const start = trpc.booking.start.useMutation();
  const query = trpc.booking.get.useQuery({ bookingId: bookingId ?? '' }, { enabled: bookingId !== null, retry: false });
  const booking = bookingId && query.data?.id === bookingId ? query.data : null;

  // Stripe's return_url carries the intent in the query; the booking id is all we keep.
  useEffect(() => {
    if (!stripeReturnParams.some((p) => searchParams.has(p))) return;
    const next = addressParams();
    for (const p of stripeReturnParams) next.delete(p);
    setSearchParams(next, { replace: true, preventScrollReset: true });
  }, [searchParams, setSearchParams]);

  const goTo = useCallback((next: StepId) => {
    focusNext.current = true;
    historyMode.current = 'push';
    setStep(next);
  }, []);

  // The step → the URL, only when the step changes (setSearchParams changes with every address).
  // Read from the address bar itself: the booking id may have just been written there.
  const setSearchParamsRef = useRef(setSearchParams);
  setSearchParamsRef.current = setSearchParams;
  const bookingIdRef = useRef(bookingId);
  bookingIdRef.current = bookingId;
  useEffect(() => {
    if (step === null) return;
    const mode = historyMode.current;
    historyMode.current = 'push';
    const current = addressParams();
    // No step in the address means the first one.
    if ((parseStep(current.get('step')) ?? 'documents') === step) return;
    current.set('step', step);
    // The booking id may still be on its way into the address (a navigation not yet finished): keep it.
    if (bookingIdRef.current && !current.has('booking')) current.set('booking', bookingIdRef.current);
    seenUrlStep.current = step;
    setSearchParamsRef.current(current, { replace: mode === 'replace', preventScrollReset: true });
  }, [step]);

  // The URL → the step: Back or Forward moved to another step's entry.
  useEffect(() => {
    if (seenUrlStep.current === urlStep) return;
    seenUrlStep.current = urlStep;
    if (step === null) return;
    const target = urlStep ?? 'documents';
    if (target === step) return;
    if (reachableByHistory(target, booking)) {
      void preloadStep(target).then(() => {
        focusNext.current = true;
        historyMode.current = 'replace';
        setStep(target);
      });
    } else {
      // Not open any more (paid, or its groundwork is gone): the address shows the current step again.
      const current = addressParams();
      current.set('step', step);
      seenUrlStep.current = step;
      setSearchParams(current, { replace: true, preventScrollReset: true });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reacts to the address changing, not to the step
  }, [urlStep]);

  // Decide where to start, once per booking.
  useEffect(() => {
    if (!ready) return;
    if (!bookingId) {
      if (step === null) startTransition(() => setStep('documents'));
      return;
    }
    if (query.isError && resolvedFor.current !== bookingId) {
      resolvedFor.current = bookingId;
      if (errorCode(query.error) === 'NOT_FOUND' || errorCode(query.error) === 'BAD_REQUEST') {
        forget();
        historyMode.current = 'replace';
        setStep('documents');
      }
      return;
    }
    if (!booking || resolvedFor.current === booking.id) return;
    resolvedFor.current = booking.id;
    const fromStorageOnly = !fromUrl;
    if (booking.status === 'cancelled' || (fromStorageOnly && isPaid(booking))) {
      // A finished or cancelled booking remembered by this browser: start a new one.
      if (booking.status === 'cancelled') toast({ title: bookingCancelledMessage });
      forget();
      historyMode.current = 'replace';
      setStep('documents');
      return;
    }
    if (fromStorageOnly) remember(booking.id);
    const resume = resumeStep(booking, new Date());
    // A reload keeps the step in the address when it is still open; otherwise where the booking says.
    const start = !fromStorageOnly && urlStep && !resume.holdLost && reachableByHistory(urlStep, booking) ? urlStep : resume.step;
    setTimeZone(booking.startsAt ? booking.timeZone : null);
    if (resume.holdLost) toast({ title: holdExpiredMessage, variant: 'destructive' });
    // Keep "Loading your booking..." until the step's code is here too: heading and step appear together.
    void preloadStep(start).then(() => {
      historyMode.current = 'replace';
      setStep(start);
    });
  }, [ready, bookingId, booking, query.isError, query.error, fromUrl, forget, remember, step]);

  // After every commit, not only when the step changes: the new step's heading may appear a
  // render later (the booking re-read, "Loading your booking..." meanwhile), and the wish to
  // focus it waits for it — otherwise focus is left on the page's body, at the top.
  useEffect(() => {
    if (focusNext.current && headingRef.current) {
      focusNext.current = false;
      headingRef.current.focus();
    }
  });

  const refresh = useCallback(async () => {
    if (bookingId) await utils.booking.get.invalidate({ bookingId });
  }, [bookingId, utils]);

  /** A step is done: re-read the booking and fetch the next step's code, then show it. */
  const advance = useCallback((next: StepId) => Promise.all([refresh(), preloadStep(next)]).then(() => goTo(next)), [refresh, goTo]);

  const ensureBooking = useCallback(async () => {
    if (bookingId && booking) return bookingId;
    const created = await start.mutateAsync({ timeZone: browserTimeZone() });
    resolvedFor.current = created.bookingId;
    remember(created.bookingId);
    return created.bookingId;
  }, [bookingId, booking, start, remember]);

  const onHoldLost = useCallback(
    (message: string) => {
      toast({ title: message, variant: 'destructive' });
      void advance('booking');
    },
    [advance],
  );

  const onPaid = useCallback(async () => {
    await Promise.all([refresh(), preloadStep('confirm')]);
    // Paid: the next visit to /schedule starts a new booking (this one stays reachable by its URL).
    forget({ keepUrl: true });
    goTo('confirm');
  }, [refresh, forget, goTo]);

  // A first visit (no booking yet) renders the Documents step straight away, on the server too.
  const loading = bookingId !== null && (step === null || (!booking && step !== 'documents'));
  const current: StepId = step ?? 'documents';
  // The server renders the Documents step (no zone shown), so this never runs there or during hydration.
  const detectedTimeZone = current === 'documents' ? businessTimeZone : browserTimeZone();
  const zone = timeZone ?? detectedTimeZone;

  if (loading && query.isError) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-xl border border-red-300 bg-red-50 p-8" role="alert">
        <p className="font-semibold text-red-900">An unexpected error occurred</p>
        <button className={buttonVariants({ variant: 'outline' })} onClick={() => window.location.reload()}>
          Try Again
        </button>
      </div>
    );
  }

  if (loading) {
    return (
      <div className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-8" role="status">
        <Loader2 className="h-5 w-5 animate-spin text-blue-700 motion-reduce:animate-none" aria-hidden="true" />
        <span>Loading your booking...</span>
      </div>
    );
  }

  const stepInfo = steps.find((s) => s.id === current)!;
  const nextStep = steps[steps.indexOf(stepInfo) + 1]?.id;
  const preloadNextStep = () => {
    if (nextStep) void preloadStep(nextStep);
  };

  return (
    <Tabs.Root
      value={current}
      onValueChange={(value) => {
        if (tabEnabled(value as StepId, current, booking)) {
          historyMode.current = 'push';
          setStep(value as StepId);
        }
      }}
      activationMode="manual"
    >
      <Tabs.List aria-label="Booking steps" className="mb-8 grid grid-cols-5 gap-2">
        {steps.map((s, index) => {
          const enabled = tabEnabled(s.id, current, booking);
          const active = s.id === current;
          return (
            <Tabs.Trigger
              key={s.id}
              value={s.id}
              disabled={!enabled}
              onPointerEnter={enabled ? () => void preloadStep(s.id) : undefined}
              onFocus={enabled ? () => void preloadStep(s.id) : undefined}
              className={cx(
                'flex items-center justify-center gap-2 rounded-lg border px-2 py-3 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700',
                active
                  ? 'border-blue-700 bg-blue-700 text-white'
                  : enabled
                    ? 'border-slate-300 bg-white text-slate-900 hover:bg-slate-50'
                    : 'cursor-not-allowed border-slate-200 bg-slate-100 text-slate-500',
              )}
            >
              <span
                className={cx(
                  'flex h-7 w-7 items-center justify-center rounded-full text-sm',
                  active ? 'bg-white text-blue-800' : 'bg-slate-200 text-slate-800',
                )}
              >
                {index + 1}
              </span>{' '}
              {/* Below 768 px only the number shows; the label stays for screen readers. */}
              <span className="sr-only md:not-sr-only">{s.label}</span>
            </Tabs.Trigger>
          );
        })}
      </Tabs.List>

      {steps.map((s) => (
        <Tabs.Content key={s.id} value={s.id} className="focus-visible:outline-none" tabIndex={-1}>
          {s.id === current && (
            <section
              aria-labelledby={`step-${s.id}-heading`}
              className="grid gap-6"
              // Working in a step: fetch the next one's code meanwhile.
              onPointerEnter={preloadNextStep}
              onFocus={preloadNextStep}
            >
              <h2 id={`step-${s.id}-heading`} ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-slate-900 focus:outline-none">
                {stepInfo.title}
              </h2>
              {current === 'documents' && <DocumentsStep booking={booking} ensureBooking={ensureBooking} onDone={() => advance('booking')} />}
              <Suspense fallback={<StepLoading />}>
                {current === 'booking' && booking && (
                  <BookingStep
                    booking={booking}
                    timeZone={zone}
                    detectedTimeZone={detectedTimeZone}
                    onTimeZoneChange={setTimeZone}
                    onHeld={() => advance('contact')}
                  />
                )}
                {current === 'contact' && booking && <ContactStep booking={booking} onSaved={() => advance('payment')} />}
                {current === 'payment' && booking && (
                  <PaymentStep booking={booking} returnedFromProvider={returnedFromProvider} onPaid={onPaid} onHoldLost={onHoldLost} />
                )}
                {current === 'confirm' && booking && <ConfirmStep booking={booking} />}
              </Suspense>
            </section>
          )}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
