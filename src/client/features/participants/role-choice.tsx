import { participantRoleLabels, participantRoles, type ParticipantRole } from '../../../shared/participants.ts';

/**
 * Whom a customer is adding: a signer or a witness, as radio buttons. The
 * booking wizard and the booking page both ask it; each names the choices its
 * own way (`label`: the wizard says "Co-signer" and the fee).
 */
export function RoleChoice({ role, onRole, label = (value) => participantRoleLabels[value] }: { role: ParticipantRole; onRole: (role: ParticipantRole) => void; label?: (role: ParticipantRole) => string }) {
  return (
    <fieldset className="grid gap-2">
      <legend className="font-medium text-slate-900">Role</legend>
      <div className="flex gap-4">
        {participantRoles.map((value) => (
          <label key={value} className="flex items-center gap-2 text-slate-900">
            <input type="radio" name="role" value={value} checked={role === value} onChange={() => onRole(value)} />
            {label(value)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
