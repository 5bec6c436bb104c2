import { useState, type FormEvent } from 'react';
import { BadgeCheck, ShieldAlert } from 'lucide-react';
import { actLabels, identityMessages, type CustomerIdentityView } from '../../../shared/notarial-act.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { trpc } from '../../lib/trpc.ts';
import { errorMessage } from '../../lib/errors.ts';

/**
 * "Verify your identity" on the manage page: a photo of the government ID
 * (front and back) and a selfie, checked by the identity provider before the
 * session. With Stripe, Stripe's own page (new tab); without it, the built-in
 * TEST MODE provider takes the photos here.
 */
const maxBytes = 8 * 1024 * 1024;

function toBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export function IdentitySection({ token }: { token: string }) {
  const utils = trpc.useUtils();
  const query = trpc.manageAct.identity.useQuery({ token }, { retry: false, refetchInterval: (q) => (q.state.data?.status === 'pending' || q.state.data?.status === 'processing' ? 5000 : false) });
  const view = query.data;
  if (!view || (!view.open && view.status !== 'verified')) return null;
  return (
    <Card>
      <CardHeader>
        <h2 id="identity" className="scroll-mt-24 text-lg font-semibold text-slate-900">
          {actLabels.verifyIdentity}
        </h2>
        <p className="text-slate-700">The notary must know who you are before the session: a photo of your government ID (front and back) and a selfie compared with the ID photo.</p>
      </CardHeader>
      <CardContent className="grid gap-4">
        <IdentityStatus view={view} />
        {view.status !== 'verified' && view.status !== 'locked' && view.status !== 'processing' &&
          (view.mode === 'test' ? (
            <TestModeForm token={token} onDone={(next) => utils.manageAct.identity.setData({ token }, next)} />
          ) : (
            <StripeStart token={token} />
          ))}
      </CardContent>
    </Card>
  );
}

function IdentityStatus({ view }: { view: CustomerIdentityView }) {
  if (view.status === 'verified') {
    return (
      <p className="flex items-center gap-2 font-semibold text-green-800" data-testid="identity-status">
        <BadgeCheck className="h-5 w-5" aria-hidden="true" /> {identityMessages.alreadyVerified}
      </p>
    );
  }
  if (!view.message) return view.attemptsUsed > 0 ? <p className="text-slate-700">Attempts left: {view.attemptsLeft}</p> : null;
  return (
    <div role="alert" data-testid="identity-status" className="flex gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
      <ShieldAlert className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
      <div>
        <p className="font-semibold">{view.message}</p>
        {view.status === 'failed' && <p>Attempts left: {view.attemptsLeft}</p>}
      </div>
    </div>
  );
}

function StripeStart({ token }: { token: string }) {
  const start = trpc.manageAct.startIdentity.useMutation();
  return (
    <div className="grid gap-2">
      <Button
        type="button"
        className="w-fit"
        disabled={start.isPending}
        onClick={async () => {
          // Opened first, filled after: a window opened after an await is blocked as a pop-up.
          const tab = window.open('', '_blank');
          try {
            const { url } = await start.mutateAsync({ token });
            if (tab) tab.location.href = url;
            else window.location.href = url;
          } catch {
            tab?.close();
          }
        }}
      >
        {actLabels.verifyIdentity}
      </Button>
      <p className="text-sm text-slate-700">Opens Stripe’s secure verification in a new tab. Come back to this page when you are done; it updates by itself.</p>
      {start.error && <p role="alert" className="text-sm text-red-700">{errorMessage(start.error)}</p>}
    </div>
  );
}

function TestModeForm({ token, onDone }: { token: string; onDone: (view: CustomerIdentityView) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const form = new FormData(event.currentTarget);
    const nameOnId = String(form.get('nameOnId') ?? '').trim();
    const files = ['front', 'back', 'selfie'].map((part) => form.get(part));
    if (!nameOnId) return setError(identityMessages.nameRequired);
    if (files.some((f) => !(f instanceof File) || f.size === 0)) return setError(identityMessages.missingImage);
    if (files.some((f) => (f as File).size > maxBytes)) return setError(identityMessages.badImage);
    setBusy(true);
    try {
      const [front, back, selfie] = await Promise.all(files.map((f) => toBase64(f as File)));
      const res = await fetch(`/api/manage/identity/test?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nameOnId, front, back, selfie }),
      });
      const body = (await res.json()) as CustomerIdentityView & { error?: string };
      if (!res.ok) setError(body.error ?? 'Something went wrong. Please try again.');
      else onDone(body);
    } catch {
      setError('The photos could not be sent. Please check your connection and try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate aria-describedby="identity-test-mode">
      <div id="identity-test-mode" className="rounded-md border-2 border-dashed border-amber-500 bg-amber-50 p-3 text-sm text-amber-950">
        <p>
          <strong className="mr-1 rounded bg-amber-800 px-1.5 py-0.5 text-white">{actLabels.testMode}</strong>
          No real identity check happens here. The name decides the outcome: a last name of “Fail”, “Mismatch” or “Expired” fails (e.g. Ida Fail); any other name passes.
        </p>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="identity-name">Your name exactly as on your ID</Label>
        <Input id="identity-name" name="nameOnId" autoComplete="name" maxLength={200} required />
      </div>
      {[
        ['front', 'Front of your ID'],
        ['back', 'Back of your ID'],
        ['selfie', 'A selfie (your face, looking at the camera)'],
      ].map(([part, label]) => (
        <div key={part} className="grid gap-1.5">
          <Label htmlFor={`identity-${part}`}>{label}</Label>
          <input id={`identity-${part}`} name={part} type="file" accept="image/jpeg,image/png" capture={part === 'selfie' ? 'user' : 'environment'} required className="text-sm text-slate-900 file:mr-3 file:rounded-md file:border file:border-slate-400 file:bg-white file:px-3 file:py-1.5" />
        </div>
      ))}
      <p className="text-sm text-slate-700">JPEG or PNG, at most 8 MB each. Your photos are stored privately and seen only by your notary.</p>
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" className="w-fit" disabled={busy}>
        {busy ? 'Checking…' : actLabels.verifyIdentity}
      </Button>
    </form>
  );
}
