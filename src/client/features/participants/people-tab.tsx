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
