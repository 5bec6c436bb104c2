import { format } from 'date-fns';
import { TZDate } from '@date-fns/tz';
import type { Deps } from '../../deps.ts';
import { renderEmail } from '../notifications/layout.ts';
import { enqueueMail } from '../notifications/repository.ts';
import { staffRoleLabels } from '../../../shared/staff.ts';
import type { InviteMailer } from './service.ts';

/** The invitation goes through the mail outbox like every other message. */
export const sendInviteEmail: InviteMailer = async (deps: Deps, invite) => {
  const expires = format(new TZDate(invite.expiresAt.getTime(), 'America/Chicago'), "MMMM d, yyyy 'at' h:mm a");
  const rendered = renderEmail(
    {
      subject: 'You are invited to the NotaryOnline staff console',
      heading: 'Join the staff console',
      preheader: `You have been invited as ${staffRoleLabels[invite.role]}.`,
      blocks: [
        { type: 'paragraph', text: `You have been invited to the NotaryOnline staff console as ${staffRoleLabels[invite.role]}.` },
        { type: 'button', label: 'Accept the invitation', href: invite.url },
        { type: 'note', text: `The link works once and expires on ${expires} Central Time. If you did not expect it, ignore this email.` },
      ],
    },
    deps.config.publicUrl,
  );
  await enqueueMail(deps.db, {
    kind: 'staff_invite',
    payload: { message: { to: invite.email, ...rendered }, secrets: [invite.url] },
  });
};
