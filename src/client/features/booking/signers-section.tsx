import { RoleChoice } from '../participants/role-choice.tsx';
import { PersonLine } from '../participants/person-line.tsx';
import { useId, useState, type FormEvent } from 'react';
import type { BookingView } from '../../../shared/booking.ts';
import { formatUsd } from '../../../shared/money.ts';
import {
  maxAddedParticipants,
  participantDetailsSchema,
  participantMessages,
  participantRoleLabels,
  type ParticipantRole,
} from '../../../shared/participants.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { usePublicConfig } from '../../lib/public-config.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { trpc } from '../../lib/trpc.ts';

/**
 * "Other signers and witnesses" in the Contact step (issue 29, decision 125):
 * up to three people besides the customer, each a co-signer or a witness, with
 * a name, an email and an optional phone. Each co-signer's fee is added to the
 * price at once (a witness is free); everyone gets their own invitation once
 * the booking is paid. The form stays closed until asked for: its fields are
 * not the customer's own.
 */
export function SignersSection({ booking }: { booking: BookingView }) {
  const config = usePublicConfig();
  const utils = trpc.useUtils();
  const setBooking = (view: BookingView) => utils.booking.get.setData({ bookingId: booking.id }, view);
  const add = trpc.booking.addParticipant.useMutation({ onSuccess: setBooking });
  const remove = trpc.booking.removeParticipant.useMutation({ onSuccess: setBooking });
  const ids = { heading: useId(), name: useId(), email: useId(), phone: useId(), error: useId() };
  const [open, setOpen] = useState(false);
  const [role, setRole] = useState<ParticipantRole>('signer');
  const [error, setError] = useState<string | null>(null);
  const people = booking.participants;
  const fee = config.extraSignerFeeCents;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = participantDetailsSchema.safeParse({ role, name: data.get('name'), email: data.get('email'), phone: data.get('phone') ?? '' });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please check the details.');
    setError(null);
    try {
      await add.mutateAsync({ bookingId: booking.id, ...parsed.data, phone: parsed.data.phone ?? '' });
      setOpen(false);
      setRole('signer');
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  return (
    <section aria-labelledby={ids.heading} className="grid gap-3 rounded-xl border border-slate-200 bg-white p-5">
      <h3 id={ids.heading} className="font-semibold text-slate-900">
        Other signers and witnesses (optional)
      </h3>
      <p className="text-sm text-slate-700">
        Does someone else sign the document with you, or do you need a witness? Everyone joins the same video session from their own private link, emailed once you have paid.
        {fee > 0 && ` ${participantMessages.extraFee(fee)}`}
      </p>
      {people.length > 0 && (
        <ul className="grid gap-2" data-testid="booking-participants">
          {people.map((p) => (
            <PersonLine key={p.id} person={p} note={p.feeCents > 0 && <span className="ml-2 text-sm text-slate-700">{formatUsd(p.feeCents)}</span>}>
              <Button type="button" variant="outline" size="sm" disabled={remove.isPending} onClick={() => void remove.mutateAsync({ bookingId: booking.id, participantId: p.id }).catch((e: unknown) => setError(errorMessage(e)))}>
                Remove {p.name}
              </Button>
            </PersonLine>
          ))}
        </ul>
      )}
      {!open && people.length < maxAddedParticipants && (
        <div>
          <Button type="button" variant="outline" onClick={() => setOpen(true)}>
            Add a signer or witness
          </Button>
        </div>
      )}
      {open && (
        <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-3" aria-label="Add a signer or witness" aria-describedby={error ? ids.error : undefined}>
          <RoleChoice
            role={role}
            onRole={setRole}
            label={(value) => `${value === 'signer' ? 'Co-signer' : participantRoleLabels[value]}${fee > 0 ? (value === 'signer' ? ` (${formatUsd(fee)})` : ' (free)') : ''}`}
          />
          <div className="grid gap-3 sm:grid-cols-3">
            <div className="grid gap-1">
              <Label htmlFor={ids.name}>Their full name</Label>
              <Input id={ids.name} name="name" autoComplete="off" maxLength={200} aria-required="true" />
            </div>
            <div className="grid gap-1">
              <Label htmlFor={ids.email}>Their email address</Label>
              <Input id={ids.email} name="email" type="email" autoComplete="off" maxLength={254} aria-required="true" />
            </div>
            <div className="grid gap-1">
              <Label htmlFor={ids.phone}>Their phone (optional)</Label>
              <Input id={ids.phone} name="phone" type="tel" autoComplete="off" maxLength={40} />
            </div>
          </div>
          {error && (
            <p id={ids.error} role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
          <div className="flex gap-3">
            <Button type="submit" disabled={add.isPending}>
              Add to booking
            </Button>
            <Button type="button" variant="ghost" onClick={() => (setOpen(false), setError(null))}>
              Cancel
            </Button>
          </div>
        </form>
      )}
      {!open && error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </section>
  );
}
