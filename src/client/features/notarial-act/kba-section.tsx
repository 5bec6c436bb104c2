import { useEffect, useRef, useState, type ComponentProps, type FormEvent } from 'react';
import { BadgeCheck, ShieldAlert, Timer } from 'lucide-react';
import { actLabels } from '../../../shared/notarial-act.ts';
import { kbaLabels, kbaMessages, kbaPersonSchema, usStates, type CustomerKbaView } from '../../../shared/kba.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '../../components/ui/card.tsx';
import { Input, Select } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { useFieldErrors } from '../admin/use-field-errors.tsx';
import { announcementFor, formatLeft } from './kba-countdown.ts';

/**
 * "Identity questions" on the manage page, after "Verify your identity" has
 * passed: the signer confirms their details, then answers five questions in
 * two minutes (the server keeps the clock; this page only shows it). In TEST
 * MODE a labelled answer sheet shows the fictional record the questions ask about.
 */
export function KbaSection({ token }: { token: string }) {
  const utils = trpc.useUtils();
  const query = trpc.manageAct.kba.useQuery({ token }, { retry: false });
  // The questions open when "Verify your identity" passes (the same query as that section's).
  const identityStatus = trpc.manageAct.identity.useQuery({ token }, { retry: false }).data?.status;
  const { refetch } = query;
  useEffect(() => {
    if (identityStatus === 'verified') void refetch();
  }, [identityStatus, refetch]);
  const view = query.data;
  if (!view || (view.status === 'unavailable' && view.message === kbaMessages.bookingNotOpen)) return null;
  const setView = (next: CustomerKbaView) => utils.manageAct.kba.setData({ token }, next);
  return (
    <Card>
      <CardHeader>
        <h2 id="identity-questions" className="scroll-mt-24 text-lg font-semibold text-slate-900">
          {kbaLabels.heading}
        </h2>
        <p className="text-slate-700">{kbaMessages.intro}</p>
      </CardHeader>
      <CardContent className="grid gap-4">
        <KbaStatus view={view} />
        {(view.status === 'ready' || view.status === 'failed') && <DetailsForm token={token} view={view} onStarted={setView} />}
        {view.status === 'in_progress' && view.quiz && (
          <Quiz key={view.quiz.attemptId} token={token} quiz={view.quiz} testMode={view.mode === 'test'} onDone={setView} onTimeUp={() => void query.refetch()} />
        )}
      </CardContent>
    </Card>
  );
}

function KbaStatus({ view }: { view: CustomerKbaView }) {
  if (view.status === 'passed') {
    return (
      <p className="flex items-center gap-2 font-semibold text-green-800" data-testid="kba-status" role="status">
        <BadgeCheck className="h-5 w-5" aria-hidden="true" /> {kbaLabels.passed}
      </p>
    );
  }
  if (view.status === 'failed' || view.status === 'locked') {
    return (
      <div role="alert" data-testid="kba-status" className="flex gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
        <ShieldAlert className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
        <div>
          <p className="font-semibold">{kbaLabels.notPassed}</p>
          {view.lastScore && (
            <p>
              {view.lastScore.correct} of {view.lastScore.total} answers were right; at least 4 are needed.
            </p>
          )}
          <p>{view.status === 'locked' ? view.message : kbaMessages.attemptsLeft(view.attemptsLeft)}</p>
        </div>
      </div>
    );
  }
  if (view.status === 'unavailable' || view.status === 'not_open_yet') {
    return (
      <p className="text-slate-700" data-testid="kba-status">
        {view.message}
      </p>
    );
  }
  return null;
}

type PersonField = 'firstName' | 'lastName' | 'dateOfBirth' | 'street' | 'city' | 'state' | 'zip' | 'ssnLast4';

function DetailsForm({ token, view, onStarted }: { token: string; view: CustomerKbaView; onStarted: (view: CustomerKbaView) => void }) {
  const start = trpc.manageAct.startKba.useMutation();
  const errors = useFieldErrors<PersonField>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const person = Object.fromEntries(['firstName', 'lastName', 'dateOfBirth', 'street', 'city', 'state', 'zip', 'ssnLast4'].map((k) => [k, String(form.get(k) ?? '')]));
    if (!errors.check(kbaPersonSchema, person)) return;
    try {
      onStarted(await start.mutateAsync({ token, person: kbaPersonSchema.parse(person) }));
    } catch (error) {
      errors.setFormError(errorMessage(error));
    }
  }

  const field = (name: PersonField, label: string, props: ComponentProps<'input'> = {}, hint?: string) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`kba-${name}`}>{label}</Label>
      <Input id={`kba-${name}`} name={name} {...props} {...errors.inputProps(name, hint)} />
      {errors.message(name)}
    </div>
  );

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <p className="text-slate-700">Confirm your legal name as on your ID and give your date of birth and home address; the questions are drawn from public records about you.</p>
      <div className="grid gap-4 sm:grid-cols-2">
        {field('firstName', 'Legal first name', { defaultValue: view.bookingName.firstName, autoComplete: 'given-name', maxLength: 100 })}
        {field('lastName', 'Legal last name', { defaultValue: view.bookingName.lastName, autoComplete: 'family-name', maxLength: 100 })}
      </div>
      {field('dateOfBirth', 'Date of birth', { type: 'date', autoComplete: 'bday' })}
      {field('street', 'Home street address', { autoComplete: 'address-line1', maxLength: 200 })}
      <div className="grid gap-4 sm:grid-cols-[1fr_8rem_8rem]">
        {field('city', 'City', { autoComplete: 'address-level2', maxLength: 100 })}
        <div className="grid gap-1.5">
          <Label htmlFor="kba-state">State</Label>
          <Select id="kba-state" name="state" defaultValue="" autoComplete="address-level1" {...errors.inputProps('state')}>
            <option value="" disabled>
              Choose
            </option>
            {usStates.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
          {errors.message('state')}
        </div>
        {field('zip', 'ZIP code', { inputMode: 'numeric', autoComplete: 'postal-code', maxLength: 10 })}
      </div>
      {field('ssnLast4', 'Last 4 digits of your SSN', { inputMode: 'numeric', autoComplete: 'off', maxLength: 4, className: 'w-32' }, 'kba-ssn-why')}
      <p id="kba-ssn-why" className="text-sm text-slate-700">
        {kbaMessages.ssnWhy}
      </p>
      <p className="flex gap-2 text-sm font-medium text-slate-800">
        <Timer className="h-5 w-5 shrink-0" aria-hidden="true" /> {kbaMessages.timeLimit}
      </p>
      {view.mode === 'test' && (
        <p className="rounded-md border-2 border-dashed border-amber-500 bg-amber-50 p-3 text-sm text-amber-950">
          <strong className="mr-1 rounded bg-amber-800 px-1.5 py-0.5 text-white">{actLabels.testMode}</strong>
          No real records are searched: the questions ask about a made-up record built from these details, shown on a {kbaLabels.answerSheet} beside the quiz. A last name of “KbaFail” always fails.
        </p>
      )}
      {errors.formError && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {errors.formError}
        </p>
      )}
      <Button type="submit" className="w-fit" disabled={start.isPending}>
        {start.isPending ? 'Preparing your questions…' : kbaLabels.start}
      </Button>
    </form>
  );
}

type Quiz = NonNullable<CustomerKbaView['quiz']>;

function Quiz({ token, quiz, testMode, onDone, onTimeUp }: { token: string; quiz: Quiz; testMode: boolean; onDone: (view: CustomerKbaView) => void; onTimeUp: () => void }) {
  const answer = trpc.manageAct.answerKba.useMutation();
  const deadline = useRef(Date.now() + quiz.secondsLeft * 1000);
  const [left, setLeft] = useState(quiz.secondsLeft);
  const shown = useRef(quiz.secondsLeft);
  const [announcement, setAnnouncement] = useState('');
  const [error, setError] = useState<string | null>(null);
  const timeUp = useRef(onTimeUp);
  timeUp.current = onTimeUp;

  useEffect(() => {
    const timer = setInterval(() => {
      const next = Math.max(0, Math.ceil((deadline.current - Date.now()) / 1000));
      const said = announcementFor(shown.current, next);
      shown.current = next;
      setLeft(next);
      if (said) setAnnouncement(said);
      if (next === 0) {
        clearInterval(timer);
        setAnnouncement(kbaMessages.timeUp);
        // The server decides; a moment later it has failed the quiz.
        setTimeout(() => timeUp.current(), 6_000);
      }
    }, 250);
    return () => clearInterval(timer);
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const form = new FormData(event.currentTarget);
    const answers = quiz.questions.map((q) => ({ questionId: q.id, choiceId: String(form.get(`q-${q.id}`) ?? '') }));
    if (answers.some((a) => !a.choiceId)) return setError(kbaMessages.answerAll);
    try {
      onDone(await answer.mutateAsync({ token, attemptId: quiz.attemptId, answers }));
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-3 rounded-md border border-slate-300 bg-slate-50 p-3">
        <Timer className="h-5 w-5 text-slate-700" aria-hidden="true" />
        <p className="font-semibold text-slate-900">
          {kbaLabels.timeLeft}:{' '}
          <span role="timer" aria-label={kbaLabels.timeLeft} data-testid="kba-time-left" className="font-mono">
            {formatLeft(left)}
          </span>
        </p>
        <p className="text-sm text-slate-700">{kbaMessages.timeLimit}</p>
        <p className="sr-only" aria-live="polite" aria-atomic="true">
          {announcement}
        </p>
      </div>
      {testMode && quiz.answerSheet && (
        <section aria-labelledby="kba-answer-sheet" className="rounded-md border-2 border-dashed border-amber-500 bg-amber-50 p-3 text-sm text-amber-950">
          <h3 id="kba-answer-sheet" className="font-semibold">
            {kbaLabels.answerSheet}
          </h3>
          <p>The made-up record the questions ask about (sources: {quiz.answerSheet.sources.join('; ')}). Answer from it to pass, or against it to fail.</p>
          <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
            {quiz.answerSheet.facts.map((f) => (
              <div key={f.label} className="contents">
                <dt className="font-medium">{f.label}</dt>
                <dd>{f.value}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      <form onSubmit={submit} className="grid gap-5" noValidate>
        {quiz.questions.map((q, i) => (
          <fieldset key={q.id} className="grid gap-2">
            <legend className="mb-1 font-medium text-slate-900">
              {i + 1}. {q.prompt}
            </legend>
            {q.choices.map((c) => (
              <label key={c.id} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-slate-200 px-3 py-2 text-slate-900 has-[:checked]:border-blue-600 has-[:checked]:bg-blue-50">
                <input type="radio" name={`q-${q.id}`} value={c.id} className="h-4 w-4" disabled={left === 0} />
                {c.label}
              </label>
            ))}
          </fieldset>
        ))}
        {error && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {error}
          </p>
        )}
        <Button type="submit" className="w-fit" disabled={answer.isPending || left === 0}>
          {answer.isPending ? 'Checking…' : kbaLabels.submit}
        </Button>
      </form>
    </div>
  );
}
