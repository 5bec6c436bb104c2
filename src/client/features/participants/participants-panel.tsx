import { RoleChoice } from './role-choice.tsx';
import { PersonLine } from './person-line.tsx';
import { useId, useState, type FormEvent } from 'react';
import {
  maxAddedParticipants,
  participantDetailsSchema,
  participantLabels,
  participantMessages,
  participantStatusLabels,
  type ParticipantRole,
  type SignerPaymentSetup,
} from '../../../shared/participants.ts';
import { formatUsd } from '../../../shared/money.ts';
import { participantFeeCents } from '../../../shared/pricing.ts';
import { usePublicConfig } from '../../lib/public-config.tsx';
import { SignerPayment } from './signer-payment.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { trpc } from '../../lib/trpc.ts';

/**
 * "Signers and witnesses" on the customer's booking page (issue 29): who is
 * invited, and **Add a signer** (role Signer or Witness) until the session
 * starts. Each gets their own email with their own private link.
 */
export function ParticipantsPanel({ token, canAdd, payer }: { token: string; canAdd: boolean; payer: { name: string; email: string } | null }) {
  const utils = trpc.useUtils();
  const config = usePublicConfig();
  const list = trpc.participants.list.useQuery({ token }, { retry: false });
  const add = trpc.participants.add.useMutation({ onSuccess: (rows) => utils.participants.list.setData({ token }, rows) });
  const startPaid = trpc.payments.startSigner.useMutation();
  const [paying, setPaying] = useState<{ setup: SignerPaymentSetup; name: string } | null>(null);
  const ids = { role: useId(), name: useId(), email: useId(), phone: useId(), error: useId() };
  const [role, setRole] = useState<ParticipantRole>('signer');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const rows = list.data ?? [];
  const active = rows.filter((p) => p.status === 'invited' || p.status === 'joined').length;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const parsed = participantDetailsSchema.safeParse({ role, name: data.get('name'), email: data.get('email'), phone: data.get('phone') ?? '' });
    setDone(null);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please check the details.');
    setError(null);
    try {
      const details = { token, ...parsed.data, phone: parsed.data.phone ?? '' };
      // A co-signer with a fee is added by their own payment, never before it succeeds (decision 125).
      if (participantFeeCents(config, parsed.data.role) > 0) {
        const setup = await startPaid.mutateAsync(details);
        await utils.participants.list.invalidate({ token });
        setPaying({ setup, name: parsed.data.name });
        form.reset();
        return;
      }
      await add.mutateAsync(details);
      setDone(participantLabels.added(parsed.data.name));
      form.reset();
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  if (!canAdd && rows.length === 0) return null;
  return (
    <SectionCard title="Signers and witnesses" intro="Everyone who signs, and any witness, joins the same video session with their own private link.">
      {rows.length > 0 && (
        <ul className="mb-4 grid gap-2" data-testid="participants">
          {rows.map((p) => (
            <PersonLine key={p.id} person={p}>
              <span className="text-sm text-slate-700">{participantStatusLabels[p.status]}</span>
            </PersonLine>
          ))}
        </ul>
      )}
      {paying && (
        <SignerPayment
          token={token}
          setup={paying.setup}
          name={paying.name}
          payer={payer}
          onPaid={() => {
            setDone(participantLabels.added(paying.name));
            setPaying(null);
            void utils.participants.list.invalidate({ token });
          }}
          onCancel={() => setPaying(null)}
        />
      )}
      {canAdd && !paying && active < maxAddedParticipants && (
        <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-3" aria-describedby={error ? ids.error : undefined}>
          <RoleChoice role={role} onRole={setRole} />
          {config.extraSignerFeeCents > 0 && <p className="text-sm text-slate-700">{participantMessages.paymentRequired(config.extraSignerFeeCents)} Witnesses are free.</p>}
          <div className="grid gap-1">
            <Label htmlFor={ids.name}>Full name</Label>
            <Input id={ids.name} name="name" autoComplete="off" maxLength={200} required />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={ids.email}>Email</Label>
            <Input id={ids.email} name="email" type="email" autoComplete="off" maxLength={254} required />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={ids.phone}>Phone (optional)</Label>
            <Input id={ids.phone} name="phone" type="tel" autoComplete="off" maxLength={40} />
          </div>
          {error && (
            <p id={ids.error} role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
          {done && (
            <p role="status" className="text-sm text-green-800">
              {done}
            </p>
          )}
          <div>
            <Button type="submit" disabled={add.isPending || startPaid.isPending}>
              {role === 'signer' && config.extraSignerFeeCents > 0 ? `${participantLabels.addSigner} (${formatUsd(config.extraSignerFeeCents)})` : participantLabels.addSigner}
            </Button>
          </div>
        </form>
      )}
    </SectionCard>
  );
}
