import { useId, useState, type FormEvent } from 'react';
import { participantLabels, participantRoleLabels, participantStatusLabels, type ParticipantStatus } from '../../../shared/participants.ts';
import type { SessionParticipant } from '../../../shared/session.ts';
import { Button } from '../../components/ui/button.tsx';
import { Textarea } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { trpc } from '../../lib/trpc.ts';
import type { RoomTabProps } from '../session-room/room-context.ts';

const removable = (status: ParticipantStatus) => status === 'invited' || status === 'joined';

/**
 * The room's "People" tab (issue 29): the co-signers and witnesses and where
 * each stands. The booking's notary removes one (a witness who left, a signer
 * who cannot proceed) with a reason; their part is marked not completed and
 * the act continues for the others.
 */
export function PeopleTab({ session, role }: RoomTabProps) {
  if (session.participants.length === 0) return <p className="text-sm text-slate-700">Only the signer and the notary are in this session.</p>;
  return (
    <ul className="grid gap-2" data-testid="people">
      {session.participants.map((p) => (
        <li key={p.id} className="grid gap-2 rounded-md border border-slate-200 p-2">
          <p className="flex justify-between gap-2 text-sm">
            <span className="font-semibold text-slate-900">
              {p.name} <span className="font-normal text-slate-600">({participantRoleLabels[p.role]})</span>
            </span>
            <span className="text-slate-700">{participantStatusLabels[p.status]}</span>
          </p>
          {role === 'notary' && p.role === 'witness' && removable(p.status) && <CredibleWitnessForm bookingId={session.bookingId} witness={p} signers={session.participants.filter((s) => s.role === 'signer' && removable(s.status))} customerName={session.customerName} />}
          {role === 'notary' && removable(p.status) && <RemoveForm bookingId={session.bookingId} participant={p} />}
        </li>
      ))}
    </ul>
  );
}

function RemoveForm({ bookingId, participant }: { bookingId: string; participant: SessionParticipant }) {
  const ids = { reason: useId(), error: useId() };
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = trpc.participants.remove.useMutation();
  if (!open) {
    return (
      <div>
        <Button type="button" variant="outline" onClick={() => setOpen(true)}>
          {participantLabels.remove}
          <span className="sr-only"> {participant.name}</span>
        </Button>
      </div>
    );
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
    try {
      await remove.mutateAsync({ bookingId, participantId: participant.id, reason });
      setOpen(false);
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }
  return (
    <form onSubmit={(e) => void submit(e)} className="grid gap-2" aria-describedby={error ? ids.error : undefined}>
      <Label htmlFor={ids.reason}>Why is {participant.name} leaving the act?</Label>
      <Textarea id={ids.reason} name="reason" rows={2} maxLength={1000} required minLength={3} />
      {error && (
        <p id={ids.error} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" variant="destructive" disabled={remove.isPending}>
          {participantLabels.remove}
        </Button>
        <Button type="button" variant="outline" onClick={() => setOpen(false)}>
          Keep in session
        </Button>
      </div>
    </form>
  );
}

/**
 * A credible witness (decision 124): the notary records, during the
 * recording, that this witness identifies a named signer. Stored, on the
 * act's audit trail, and in that signer's journal entry.
 */
function CredibleWitnessForm({ bookingId, witness, signers, customerName }: { bookingId: string; witness: SessionParticipant; signers: SessionParticipant[]; customerName: string }) {
  const id = useId();
  const utils = trpc.useUtils();
  const act = trpc.act.get.useQuery({ bookingId }, { retry: false });
  const record = trpc.act.recordCredibleWitness.useMutation({ onSuccess: () => void utils.act.get.invalidate({ bookingId }) });
  const recorded = act.data?.credibleWitnesses.find((w) => w.witnessId === witness.id);
  const nameOf = (participantId: string | null) => (participantId === null ? customerName : (signers.find((s) => s.id === participantId)?.name ?? ''));
  const [signer, setSigner] = useState('');
  return (
    <form
      className="grid gap-1 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        record.mutate({ bookingId, witnessId: witness.id, signerParticipantId: signer || null });
      }}
    >
      {recorded && (
        <p role="status" className="font-semibold text-green-800">
          Credible witness: {witness.name} identifies {nameOf(recorded.signerParticipantId)}.
        </p>
      )}
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1">
          <Label htmlFor={id}>{witness.name} identifies</Label>
          <select id={id} className="rounded border border-slate-300 px-2 py-1" value={signer} onChange={(e) => setSigner(e.target.value)}>
            <option value="">{customerName}</option>
            {signers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" size="sm" variant="outline" disabled={record.isPending}>
          Record credible witness<span className="sr-only"> {witness.name}</span>
        </Button>
      </div>
      {record.error && (
        <p role="alert" className="text-red-700">
          {errorMessage(record.error)}
        </p>
      )}
    </form>
  );
}
