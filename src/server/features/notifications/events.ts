import type { Tx } from '../../db/client.ts';
import type { ChatSender } from '../../../shared/chat.ts';
import type { Deps } from '../../deps.ts';
import type { MailAttachment } from '../../adapters/mail/index.ts';
import { bookingCalendar } from './calendar.ts';
import { renderEmail, type EmailContent } from './layout.ts';
import { issueCustomerLink } from '../customer-links/service.ts';
import { enqueueMail, outboxHasKey, loadBookingForMail, loadChatMessage, loadContactMessage, type BookingForMail } from './repository.ts';
import { sealOutboxSecrets, secretPlaceholder } from './secrets.ts';
import * as templates from './templates.ts';
import type { ParticipantRole } from '../../../shared/participants.ts';

/** The .ics the emails attach is the one 'Add to Calendar' downloads (http/calendar.ts). */
export { bookingCalendar } from './calendar.ts';
import { staffRoleLabels } from '../../../shared/staff.ts';
import { businessTimeZone, formatDateTimeInZone } from '../../../shared/time.ts';
import type { InviteMailer } from '../staff/service.ts';

/**
 * What the rest of the product tells the notifications feature. Each call runs
 * inside the caller's transaction and only writes outbox rows, so a message
 * exists exactly when the change that caused it was committed; the outbox
 * worker delivers it afterwards.
 */
export async function onBookingConfirmed(tx: Tx, deps: Deps, event: { bookingId: string; manageToken: string }): Promise<void> {
  const booking = await bookingWithCustomer(tx, deps, event.bookingId, 'confirmed');
  if (!booking) return;
  await enqueue(tx, deps, {
    kind: 'booking_confirmation',
    to: booking.customer!.email,
    content: templates.bookingConfirmation(booking, manageUrlTemplate(deps)),
    attachments: calendarAttachment(deps, booking, { manageUrl: manageUrlTemplate(deps) }),
    // The raw token is sealed in the row and put in at send time (./secrets.ts).
    secrets: { manage_token: event.manageToken },
    dedupeKey: `booking-confirmed:${booking.id}`,
  });
  await enqueue(tx, deps, {
    kind: 'booking_staff_notification',
    to: deps.config.STAFF_EMAIL,
    replyTo: booking.customer!.email,
    content: templates.bookingStaffNotification(booking, '/admin'),
    dedupeKey: `booking-confirmed-staff:${booking.id}`,
  });
}

export async function onBookingCancelled(
  tx: Tx,
  deps: Deps,
  event: { bookingId: string; refundedCents: number; by: 'customer' | 'staff' },
): Promise<void> {
  const booking = await bookingWithCustomer(tx, deps, event.bookingId, 'cancelled');
  if (!booking) return;
  // Every email about a booking carries its page (a token of its own; see enqueueReminder).
  const manageUrl = manageUrlTemplate(deps);
  await enqueue(tx, deps, {
    kind: 'booking_cancelled',
    to: booking.customer!.email,
    content: templates.bookingCancelledCustomer(booking, event, manageUrl),
    attachments: calendarAttachment(deps, booking, { cancelled: true, manageUrl }),
    secrets: { manage_token: await issueCustomerLink(tx, booking.id, 'cancelled') },
    dedupeKey: `booking-cancelled:${booking.id}`,
  });
  await enqueue(tx, deps, {
    kind: 'booking_cancelled_staff',
    to: deps.config.STAFF_EMAIL,
    replyTo: booking.customer!.email,
    content: templates.bookingCancelledStaff(booking, event),
    dedupeKey: `booking-cancelled-staff:${booking.id}`,
  });
}

export async function onBookingRescheduled(
  tx: Tx,
  deps: Deps,
  event: { bookingId: string; previousStartsAt: Date | null; by: 'customer' | 'staff' },
): Promise<void> {
  const booking = await bookingWithCustomer(tx, deps, event.bookingId, 'rescheduled');
  if (!booking) return;
  const manageUrl = manageUrlTemplate(deps);
  await enqueue(tx, deps, {
    kind: 'booking_rescheduled',
    to: booking.customer!.email,
    content: templates.bookingRescheduledCustomer(booking, event.previousStartsAt, event.by, manageUrl),
    attachments: calendarAttachment(deps, booking, { manageUrl }),
    secrets: { manage_token: await issueCustomerLink(tx, booking.id, 'rescheduled') },
  });
  await enqueue(tx, deps, {
    kind: 'booking_rescheduled_staff',
    to: deps.config.STAFF_EMAIL,
    replyTo: booking.customer!.email,
    content: templates.bookingRescheduledStaff(booking, event.previousStartsAt, event.by),
  });
}

/** Contact form → staff; business inquiry and the storage waiting list → sales (docs/product.md §7). */
export async function onContactMessage(tx: Tx, deps: Deps, event: { messageId: string }): Promise<void> {
  const message = await loadContactMessage(tx, event.messageId);
  if (!message) throw new Error(`contact message ${event.messageId} not found`);
  if (message.kind === 'waitlist') {
    await enqueue(tx, deps, { kind: 'waitlist', to: deps.config.SALES_EMAIL, replyTo: message.email, content: templates.waitlistToSales(message) });
    return;
  }
  const business = message.kind === 'business';
  await enqueue(tx, deps, {
    kind: business ? 'business_inquiry' : 'contact_message',
    to: business ? deps.config.SALES_EMAIL : deps.config.STAFF_EMAIL,
    replyTo: message.email,
    content: business ? templates.businessToSales(message) : templates.contactToStaff(message),
  });
}

export async function onChatMessageLeftOffline(tx: Tx, deps: Deps, event: { conversationId: string; messageId: string }): Promise<void> {
  const chat = await loadChatMessage(tx, event.conversationId, event.messageId);
  if (!chat) throw new Error(`chat message ${event.messageId} not found`);
  await enqueue(tx, deps, {
    kind: 'chat_offline',
    to: deps.config.STAFF_EMAIL,
    replyTo: chat.visitorEmail ?? undefined,
    content: templates.chatLeftOffline(chat, '/admin/chat'),
  });
}

/** A staff reply the visitor cannot see live: emailed to the address they left, once per reply. */
export async function onChatReplyToAbsentVisitor(
  tx: Tx,
  deps: Deps,
  event: { to: string; replyMessageId: number; messages: { sender: ChatSender; senderName: string | null; body: string }[] },
): Promise<void> {
  await enqueue(tx, deps, {
    kind: 'chat_reply',
    to: event.to,
    replyTo: deps.config.STAFF_EMAIL,
    content: templates.chatReplyToVisitor(event.messages, '/'),
    dedupeKey: `chat-reply:${event.replyMessageId}`,
  });
}

/** Three failed identity attempts: staff arrange another way (no personal data in the email). */
export async function onIdentityAttemptsExhausted(tx: Tx, deps: Deps, event: { bookingId: string }): Promise<void> {
  const booking = await loadBookingForMail(tx, event.bookingId);
  if (!booking) return;
  await enqueue(tx, deps, {
    kind: 'identity_attempts_exhausted',
    to: deps.config.STAFF_EMAIL,
    content: templates.identityAttemptsExhausted(booking, `/admin/bookings/${booking.id}`),
    dedupeKey: `identity-exhausted:${booking.id}`,
  });
}

/** Notarize now: nobody accepted within ON_DEMAND_MAX_WAIT_MINUTES; staff are told (the customer sees the offer in the lobby). */
export async function onOnDemandTimedOut(tx: Tx, deps: Deps, event: { bookingId: string }): Promise<void> {
  const booking = await loadBookingForMail(tx, event.bookingId);
  if (!booking) return;
  await enqueue(tx, deps, {
    kind: 'on_demand_timed_out',
    to: deps.config.STAFF_EMAIL,
    content: templates.onDemandTimedOut(booking, `/admin/bookings/${booking.id}`, deps.config.ON_DEMAND_MAX_WAIT_MINUTES),
    dedupeKey: `on-demand-timed-out:${booking.id}`,
  });
}

/** Two identity-question quizzes failed in a row: staff are told (no answers, no personal details). */
export async function onKbaLockedOut(tx: Tx, deps: Deps, event: { bookingId: string; attempt: number; lockedUntil: Date }): Promise<void> {
  const booking = await loadBookingForMail(tx, event.bookingId);
  if (!booking) return;
  await enqueue(tx, deps, {
    kind: 'kba_locked_out',
    to: deps.config.STAFF_EMAIL,
    content: templates.kbaLockedOut(booking, `/admin/bookings/${booking.id}`, `${event.lockedUntil.toISOString().slice(0, 16).replace('T', ' ')} UTC`),
    dedupeKey: `kba-locked:${booking.id}:${event.attempt}`,
  });
}

/**
 * The sealed PDF is ready. The email carries a link of its own, which admits
 * the booking page and its downloads only (customer-links' table).
 * `resend` lets staff send it again (no dedupe key then).
 */
export async function onNotarizedDocumentReady(tx: Tx, deps: Deps, event: { bookingId: string; keptUntil: Date; resend?: boolean }): Promise<void> {
  const booking = await bookingWithCustomer(tx, deps, event.bookingId, 'notarized document ready');
  if (!booking) return;
  const manageToken = await issueCustomerLink(tx, booking.id, 'notarized-document');
  await enqueue(tx, deps, {
    kind: 'notarized_document_ready',
    to: booking.customer!.email,
    content: templates.notarizedDocumentReady(booking, manageUrlTemplate(deps), { keptUntil: event.keptUntil, verifyUrl: `${deps.config.publicUrl}/verify` }),
    // Put in at send time (./secrets.ts): the stored row holds only a placeholder.
    secrets: { manage_token: manageToken },
    dedupeKey: event.resend ? undefined : `notarized-ready:${booking.id}`,
  });
}

/** A co-signer or witness was added: their invitation, with their own link (sealed in the outbox, put in at send time). */
export async function onParticipantInvited(tx: Tx, deps: Deps, event: { bookingId: string; participantId: string; name: string; email: string; role: ParticipantRole; token: string }): Promise<void> {
  const booking = await loadBookingForMail(tx, event.bookingId);
  if (!booking) return;
  await enqueue(tx, deps, {
    kind: 'participant_invitation',
    to: event.email,
    content: templates.participantInvitation(booking, event, `${deps.config.publicUrl}/invitation/${secretPlaceholder('participant_token')}`),
    secrets: { participant_token: event.token },
    dedupeKey: `participant-invited:${event.participantId}`,
  });
}

/**
 * Called by the worker's periodic check: one reminder per appointment time,
 * with the manage link and the session's Join link (a token of its own: the
 * confirmation's is never stored in usable form).
 */
export async function enqueueReminder(tx: Tx, deps: Deps, bookingId: string): Promise<boolean> {
  const booking = await bookingWithCustomer(tx, deps, bookingId, 'reminder');
  if (!booking?.startsAt) return false;
  // Keyed by time too: an appointment moved by staff gets a reminder for its new time.
  const dedupeKey = `reminder:${booking.id}:${booking.startsAt.toISOString()}`;
  if (await outboxHasKey(tx, dedupeKey)) return false;
  // A token of its own, put in at send time (./secrets.ts): the stored row holds only a placeholder.
  const token = await issueCustomerLink(tx, booking.id, 'reminder');
  const manageUrl = manageUrlTemplate(deps);
  const id = await enqueue(tx, deps, {
    kind: 'booking_reminder',
    to: booking.customer!.email,
    content: templates.bookingReminder(booking, { manageUrl, joinUrl: `${manageUrl}/session` }),
    attachments: calendarAttachment(deps, booking, { manageUrl }),
    secrets: { manage_token: token },
    dedupeKey,
  });
  return id !== null;
}

/** The notary finished the session: the customer hears how it ended and what happens next. */
export async function onSessionFinished(
  tx: Tx,
  deps: Deps,
  event: { bookingId: string; outcome: 'completed' | 'no_show' | 'not_completed'; reason: string | null },
): Promise<void> {
  const booking = await bookingWithCustomer(tx, deps, event.bookingId, `session ${event.outcome}`);
  if (!booking) return;
  // The way back is the booking page (a new link; see enqueueReminder).
  const token = await issueCustomerLink(tx, booking.id, event.outcome);
  const manageUrl = manageUrlTemplate(deps);
  if (event.outcome === 'completed') {
    await enqueue(tx, deps, {
      kind: 'session_completed',
      to: booking.customer!.email,
      content: templates.sessionCompleted(booking, manageUrl),
      secrets: { manage_token: token },
      dedupeKey: `session-finished:${booking.id}`,
    });
    return;
  }
  await enqueue(tx, deps, {
    kind: event.outcome === 'no_show' ? 'session_no_show' : 'session_not_completed',
    to: booking.customer!.email,
    content: event.outcome === 'no_show' ? templates.sessionNoShow(booking, manageUrl) : templates.sessionNotCompleted(booking, manageUrl, event.reason),
    secrets: { manage_token: token },
    dedupeKey: `session-finished:${booking.id}`,
  });
}

/** A booking was assigned to a notary: they get an email (and a badge in the console). */
export async function onNotaryAssigned(tx: Tx, deps: Deps, event: { bookingId: string; notaryEmail: string; notaryName: string }): Promise<void> {
  const booking = await loadBookingForMail(tx, event.bookingId);
  if (!booking) return;
  await enqueue(tx, deps, {
    kind: 'notary_assigned',
    to: event.notaryEmail,
    content: templates.notaryAssigned(booking, event.notaryName, `/admin/appointments/${booking.id}`),
  });
}

// ---------------------------------------------------------------------------------

/** The manage link with its token as a placeholder; pass the token as the `manage_token` secret. */
export function manageUrlTemplate(deps: Deps): string {
  return `${deps.config.publicUrl}/booking/${secretPlaceholder('manage_token')}`;
}

export function mailHost(deps: Deps): string {
  return new URL(deps.config.publicUrl).hostname;
}

async function bookingWithCustomer(tx: Tx, deps: Deps, bookingId: string, what: string): Promise<BookingForMail | null> {
  const booking = await loadBookingForMail(tx, bookingId);
  if (!booking?.customer?.email) {
    // Never fail the caller's change for want of an address; say so loudly instead.
    deps.log.error({ bookingId, what }, 'booking email not queued: no booking or no customer email');
    return null;
  }
  return booking;
}

function calendarAttachment(deps: Deps, booking: BookingForMail, options: { manageUrl?: string; cancelled?: boolean }): MailAttachment[] {
  if (!booking.startsAt) return [];
  const { ics, filename } = bookingCalendar(
    deps,
    { id: booking.id, reference: booking.reference, startsAt: booking.startsAt, calendarSequence: booking.calendarSequence },
    options,
  );
  // PUBLISH even for a cancellation (STATUS:CANCELLED, higher SEQUENCE): CANCEL
  // is an iTIP scheduling method that calendars honour only with an ORGANIZER.
  return [{ filename, contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: ics }];
}

async function enqueue(
  tx: Tx,
  deps: Deps,
  entry: {
    kind: string;
    to: string;
    replyTo?: string;
    content: EmailContent;
    attachments?: MailAttachment[];
    /** Placeholder name → raw value (see ./secrets.ts); stored sealed, never in the clear. */
    secrets?: Record<string, string>;
    dedupeKey?: string;
  },
): Promise<string | null> {
  const rendered = renderEmail(entry.content, deps.config.publicUrl);
  return enqueueMail(tx, {
    kind: entry.kind,
    dedupeKey: entry.dedupeKey,
    now: deps.now(),
    payload: {
      message: { to: entry.to, replyTo: entry.replyTo, ...rendered, attachments: entry.attachments },
      ...(entry.secrets ? { sealedSecrets: sealOutboxSecrets(deps.secrets, entry.secrets) } : {}),
    },
  });
}

/** The invitation goes through the mail outbox like every other message. */
export const sendInviteEmail: InviteMailer = async (deps: Deps, invite) => {
  // The token (last segment of the URL) is a bearer secret: sealed in the outbox, put in at send time.
  const token = invite.url.slice(invite.url.lastIndexOf('/') + 1);
  const invitePath = `${invite.url.slice(0, invite.url.lastIndexOf('/') + 1)}${secretPlaceholder('invite_token')}`;
  const expires = formatDateTimeInZone(invite.expiresAt, businessTimeZone);
  const rendered = renderEmail(
    {
      subject: 'You are invited to the NotaryOnline staff console',
      heading: 'Join the staff console',
      preheader: `You have been invited as ${staffRoleLabels[invite.role]}.`,
      blocks: [
        { type: 'paragraph', text: `You have been invited to the NotaryOnline staff console as ${staffRoleLabels[invite.role]}.` },
        { type: 'button', label: 'Accept the invitation', href: invitePath },
        { type: 'note', text: `The link works once and expires on ${expires} Central Time. If you did not expect it, ignore this email.` },
      ],
    },
    deps.config.publicUrl,
  );
  await enqueueMail(deps.db, {
    kind: 'staff_invite',
    payload: { message: { to: invite.email, ...rendered }, sealedSecrets: sealOutboxSecrets(deps.secrets, { invite_token: token }) },
  });
};
