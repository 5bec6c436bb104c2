import type { ReactNode } from 'react';
import { participantRoleLabels, type ParticipantRole } from '../../../shared/participants.ts';

/** One co-signer or witness in a list: name, role and email, with what the list adds after the name (a fee) and beside it (a status, a button). */
export function PersonLine(props: { person: { name: string; role: ParticipantRole; email: string }; note?: ReactNode; children?: ReactNode }) {
  const { person } = props;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 px-3 py-2">
      <span className="text-slate-900">
        {person.name} <span className="text-sm text-slate-600">({participantRoleLabels[person.role]}, {person.email})</span>
        {props.note}
      </span>
      {props.children}
    </li>
  );
}
