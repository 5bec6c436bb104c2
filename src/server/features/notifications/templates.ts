import { formatInZone } from '../../../shared/time.ts';
import { verifyCopy } from '../../../shared/verification.ts';
import type { ChatSender } from '../../../shared/chat.ts';
import { businessInquirySubject, interestLabel, waitlistPlanLabel, waitlistSubject } from '../../../shared/contact.ts';
import { formatUsd } from '../../../shared/money.ts';
import { priceLines } from '../../../shared/pricing.ts';
import { sessionSteps } from '../../../shared/session-copy.ts';
import { roomOpensMinutesBefore } from '../../../shared/session.ts';
import { site } from '../../../shared/site.ts';
import { actLabels, maxIdentityAttempts } from '../../../shared/notarial-act.ts';
import { participantLabels, participantRoleLabels, type ParticipantRole } from '../../../shared/participants.ts';
import type { EmailContent } from './layout.ts';
import type { BookingForMail } from './repository.ts';

/** Every message the product sends, as content blocks (see layout.ts). Pure. */

const prepareList = {
  type: 'list' as const,
  title: 'What to prepare',
  items: [
    'A valid government-issued photo ID (driver’s license, passport or state ID)',
    'Your documents, unsigned — you sign them in front of the notary',
    'A quiet, private room',
    'A phone or computer with a working camera and microphone',
    'An internet connection of at least 1 Mbps',
  ],
};

/** The booking page: every email about a booking carries it. */
const manageButton = (manageUrl: string, label = 'View, reschedule or cancel your booking') => ({ type: 'button' as const, label, href: manageUrl });

const supportNote = { type: 'note' as const, text: `Need help? Call ${site.phone} or write to ${site.email}.` };

export const customerName = (b: BookingForMail) => [b.customer?.firstName, b.customer?.lastName].filter(Boolean).join(' ');

function customerTime(b: BookingForMail, at: Date | null = b.startsAt): string {
  return at ? formatInZone(at, b.timeZone).full : 'To be arranged';
}

/** The staff notification payload (docs/product.md §6), in the business zone. */
export function staffPayload(b: BookingForMail) {
  const when = b.startsAt ? formatInZone(b.startsAt, site.businessTimeZone) : null;
  return {
    customerName: customerName(b),
    customerEmail: b.customer?.email ?? '',
    dateTime: when ? `${when.dateTime} (${when.zone})` : '',
    documentNames: b.documentNames,
  };
}

function paidAmount(b: BookingForMail): string {
  const cents = b.payment?.amountCents ?? b.priceCents;
  return `${formatUsd(cents)} ${b.currency.toUpperCase()}`;
}

/** The co-signers and witnesses added while booking, each invited by an email of their own (decision 125). */
function participantRows(b: BookingForMail): [string, string][] {
  if (b.participants.length === 0) return [];
  const names = b.participants.map((p) => `${p.name} (${p.role === 'signer' ? 'co-signer' : 'witness'})`);
  return [['Other signers and witnesses', `${names.join('\n')}\nEach gets their own invitation by email.`]];
}

/** The price line by line when a co-signer's fee is part of it (docs/product.md §4.6). */
function priceRows(b: BookingForMail): [string, string][] {
  const lines = priceLines(b.priceCents, b.participants);
  return lines.length > 1 ? lines.map((line) => [line.label, formatUsd(line.cents)]) : [];
}

export function bookingConfirmation(b: BookingForMail, manageUrl: string): EmailContent {
  if (b.kind === 'on_demand' && !b.startsAt) return onDemandConfirmation(b, manageUrl);
  return {
    subject: `Your notary appointment is confirmed (${b.reference})`,
    heading: 'Your appointment is confirmed',
    preheader: `${customerTime(b)} — reference ${b.reference}`,
    blocks: [
      { type: 'paragraph', text: `Hello ${b.customer?.firstName || 'there'}, thank you for booking with ${site.brand}. Your secure video session with a certified notary is booked for the time below.` },
      { type: 'list', title: 'How your session works', items: [...sessionSteps] },
      {
        type: 'facts',
        rows: [
          ['Reference', b.reference],
          ['Date and time', customerTime(b)],
          ['Documents', b.documentNames.length ? b.documentNames.join('\n') : 'None'],
          ...participantRows(b),
          ...priceRows(b),
          ['Amount paid', paidAmount(b)],
        ],
      },
      prepareList,
      { type: 'button', label: 'View, reschedule or cancel your booking', href: manageUrl },
      { type: 'paragraph', text: 'Before your session, verify your identity with a photo of your government ID and a selfie. It takes a few minutes.' },
      { type: 'button', label: actLabels.verifyIdentity, href: `${manageUrl}#identity` },
      { type: 'paragraph', text: 'You can reschedule or cancel until 24 hours before your appointment; cancelling by then refunds the full amount. A calendar entry is attached to this email.' },
      supportNote,
    ],
  };
}

export function bookingStaffNotification(b: BookingForMail, adminUrl: string): EmailContent {
  const payload = staffPayload(b);
  return {
    subject: `New booking ${b.reference}: ${payload.customerName}, ${payload.dateTime}`,
    heading: 'New booking',
    blocks: [
      {
        type: 'facts',
        rows: [
          ['Customer name', payload.customerName],
          ['Customer email', payload.customerEmail],
          ['Phone', b.customer?.phone ?? ''],
          ['Date and time', payload.dateTime],
          ['Customer’s time zone', b.timeZone],
          ['Documents', payload.documentNames.join('\n') || 'None'],
          ['Reference', b.reference],
          ['Amount paid', paidAmount(b)],
        ],
      },
      { type: 'button', label: 'Open the bookings', href: adminUrl },
    ],
  };
}

export function bookingReminder(b: BookingForMail, links: { manageUrl: string; joinUrl: string }): EmailContent {
  return {
    subject: `Reminder: your notary appointment is coming up (${b.reference})`,
    heading: 'Your notary appointment is coming up',
    preheader: customerTime(b),
    blocks: [
      { type: 'paragraph', text: `Hello ${b.customer?.firstName || 'there'}, this is a reminder of your online notary session. Your notary meets you by secure video at the time below: the Join video session link opens the session room ${roomOpensMinutesBefore} minutes before it starts.` },
      { type: 'list', title: 'How your session works', items: [...sessionSteps] },
      { type: 'facts', rows: [['Reference', b.reference], ['Date and time', customerTime(b)], ['Documents', b.documentNames.join('\n') || 'None']] },
      { type: 'button', label: 'Join video session', href: links.joinUrl },
      prepareList,
      { type: 'paragraph', text: 'To view, reschedule or cancel your booking, use your booking page:' },
      { type: 'button', label: 'View, reschedule or cancel your booking', href: links.manageUrl },
      supportNote,
    ],
  };
}

export function sessionCompleted(b: BookingForMail, manageUrl: string): EmailContent {
  return {
    subject: `Thank you — your notarization is complete (${b.reference})`,
    heading: 'Thank you',
    blocks: [
      { type: 'paragraph', text: `Hello ${b.customer?.firstName || 'there'}, thank you for completing your notary session with ${site.brand}. Your notarization is complete.` },
      { type: 'facts', rows: [['Reference', b.reference], ['Session', customerTime(b)]] },
      { type: 'paragraph', text: 'We email you as soon as your notarized documents are ready to download from your booking page.' },
      manageButton(manageUrl, 'Open your booking page'),
      supportNote,
    ],
  };
}

export function sessionNoShow(b: BookingForMail, manageUrl: string): EmailContent {
  return {
    subject: `We missed you at your notary appointment (${b.reference})`,
    heading: 'We missed you',
    blocks: [
      { type: 'paragraph', text: `Hello ${b.customer?.firstName || 'there'}, your notary waited for you at the time below, but you did not join the video session. We missed you — book a new appointment whenever it suits you, or call us at ${site.phone}.` },
      { type: 'facts', rows: [['Reference', b.reference], ['Was scheduled for', customerTime(b)]] },
      { type: 'button', label: 'Book a new appointment', href: '/schedule' },
      manageButton(manageUrl, 'Open your booking page'),
      supportNote,
    ],
  };
}

export function sessionNotCompleted(b: BookingForMail, manageUrl: string, reason: string | null): EmailContent {
  return {
    subject: `Your notary session could not be completed (${b.reference})`,
    heading: 'Your session could not be completed',
    blocks: [
      { type: 'paragraph', text: `Hello ${b.customer?.firstName || 'there'}, your notary could not complete the notarization in your session.` },
      { type: 'facts', rows: [['Reference', b.reference], ['Session', customerTime(b)], ['Reason', reason || 'Not given']] },
      { type: 'paragraph', text: `Please call us at ${site.phone} and we will arrange a new session; your booking page has the details.` },
      { type: 'button', label: 'Open your booking page', href: manageUrl },
      supportNote,
    ],
  };
}

export function notaryAssigned(b: BookingForMail, notaryName: string, appointmentUrl: string): EmailContent {
  return {
    subject: `New appointment assigned to you: ${b.reference}`,
    heading: 'A new appointment is assigned to you',
    blocks: [
      { type: 'paragraph', text: `Hello ${notaryName || 'there'}, an appointment has been assigned to you. Start the video session from the appointment page in the console.` },
      {
        type: 'facts',
        rows: [
          ['Reference', b.reference],
          ['Date and time', b.startsAt ? `${formatInZone(b.startsAt, site.businessTimeZone).dateTime} (${formatInZone(b.startsAt, site.businessTimeZone).zone})` : 'To be arranged'],
          ['Customer', customerName(b)],
          ['Documents', b.documentNames.join('\n') || 'None'],
        ],
      },
      { type: 'button', label: 'Open the appointment', href: appointmentUrl },
    ],
  };
}

export function bookingCancelledCustomer(b: BookingForMail, event: { refundedCents: number; by: 'customer' | 'staff' }, manageUrl: string): EmailContent {
  const refund =
    event.refundedCents > 0
      ? `A refund of ${formatUsd(event.refundedCents)} has been issued to your original payment method. It usually appears within 5–10 business days.`
      : event.by === 'customer'
        ? 'As the appointment was cancelled less than 24 hours before it started, no refund was issued.'
        : `If you have any question about a refund, call us at ${site.phone}.`;
  return {
    subject: `Your notary appointment is cancelled (${b.reference})`,
    heading: 'Your appointment is cancelled',
    blocks: [
      {
        type: 'paragraph',
        text: event.by === 'customer' ? `Hello ${b.customer?.firstName || 'there'}, as you asked, we cancelled your appointment.` : `Hello ${b.customer?.firstName || 'there'}, we had to cancel your appointment. We are sorry for the inconvenience.`,
      },
      { type: 'facts', rows: [['Reference', b.reference], ['Was scheduled for', customerTime(b)]] },
      { type: 'paragraph', text: refund },
      manageButton(manageUrl, 'View your booking'),
      { type: 'button', label: 'Book a new appointment', href: '/schedule' },
      supportNote,
    ],
  };
}

export function bookingCancelledStaff(b: BookingForMail, event: { refundedCents: number; by: 'customer' | 'staff' }): EmailContent {
  const payload = staffPayload(b);
  return {
    subject: `Booking cancelled ${b.reference}: ${payload.customerName}, ${payload.dateTime}`,
    heading: 'Booking cancelled',
    blocks: [
      {
        type: 'facts',
        rows: [
          ['Reference', b.reference],
          ['Customer name', payload.customerName],
          ['Customer email', payload.customerEmail],
          ['Was scheduled for', payload.dateTime],
          ['Cancelled by', event.by],
          ['Refunded', event.refundedCents > 0 ? formatUsd(event.refundedCents) : 'No refund'],
        ],
      },
    ],
  };
}

export function bookingRescheduledCustomer(b: BookingForMail, previousStartsAt: Date | null, by: 'customer' | 'staff', manageUrl: string): EmailContent {
  return {
    subject: `Your notary appointment has a new time (${b.reference})`,
    heading: 'Your appointment has a new time',
    preheader: customerTime(b),
    blocks: [
      {
        type: 'paragraph',
        text: by === 'customer' ? `Hello ${b.customer?.firstName || 'there'}, your appointment has been moved as you asked. Nothing more to pay.` : `Hello ${b.customer?.firstName || 'there'}, our team moved your appointment. If the new time does not suit you, call us at ${site.phone}.`,
      },
      { type: 'facts', rows: [['Reference', b.reference], ['New date and time', customerTime(b)], ['Previous time', previousStartsAt ? customerTime(b, previousStartsAt) : notarizeNowLabel]] },
      prepareList,
      manageButton(manageUrl),
      { type: 'paragraph', text: 'An updated calendar entry is attached; it replaces the previous one.' },
      supportNote,
    ],
  };
}

/** A booking that was Notarize now before it took a scheduled time (decision 110). */
const notarizeNowLabel = 'Notarize now (not served in time)';

export function bookingRescheduledStaff(b: BookingForMail, previousStartsAt: Date | null, by: 'customer' | 'staff'): EmailContent {
  const payload = staffPayload(b);
  const previous = previousStartsAt ? formatInZone(previousStartsAt, site.businessTimeZone) : null;
  return {
    subject: `Booking rescheduled ${b.reference}: ${payload.customerName}, ${payload.dateTime}`,
    heading: 'Booking rescheduled',
    blocks: [
      {
        type: 'facts',
        rows: [
          ['Reference', b.reference],
          ['Customer name', payload.customerName],
          ['Customer email', payload.customerEmail],
          ['New date and time', payload.dateTime],
          ['Previous time', previous ? `${previous.dateTime} (${previous.zone})` : notarizeNowLabel],
          ['Documents', payload.documentNames.join('\n') || 'None'],
          ['Moved by', by],
        ],
      },
    ],
  };
}

interface ContactRow {
  kind: 'contact' | 'business' | 'chat_offline' | 'waitlist';
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  interest: string | null;
  message: string;
}

export function contactToStaff(m: ContactRow): EmailContent {
  return {
    subject: `New contact message from ${m.name}`,
    heading: 'New message from the contact form',
    blocks: [
      { type: 'facts', rows: [['Name', m.name], ['Email', m.email], ['Phone', m.phone || 'Not given']] },
      { type: 'paragraph', text: m.message },
      { type: 'note', text: 'Reply to this email to answer the visitor directly.' },
    ],
  };
}

/** docs/product.md §7.3: subject and the body fields Name, Email, Company, Phone, Interest, Message. */
export function businessToSales(m: ContactRow): EmailContent {
  return {
    subject: businessInquirySubject(m.name, m.company ?? ''),
    heading: 'Business Solutions Inquiry',
    blocks: [
      {
        type: 'facts',
        rows: [
          ['Name', m.name],
          ['Email', m.email],
          ['Company', m.company || 'Not given'],
          ['Phone', m.phone || 'Not given'],
          ['Interest', interestLabel(m.interest)],
          ['Message', m.message || '(no message)'],
        ],
      },
      { type: 'note', text: 'We promise a reply within 24 hours on business days. Reply to this email to answer the visitor directly.' },
    ],
  };
}

/** Someone wants account storage (docs/decisions/078): sales tell them when it opens. */
export function waitlistToSales(m: ContactRow): EmailContent {
  return {
    subject: waitlistSubject(m.name, m.interest ?? ''),
    heading: 'Document storage waiting list',
    blocks: [
      { type: 'facts', rows: [['Name', m.name], ['Email', m.email], ['Plan', waitlistPlanLabel(m.interest)]] },
      { type: 'note', text: 'They joined the waiting list on the Document Management page. Nothing was charged and no account exists: tell them when storage opens. Reply to this email to write to them directly.' },
    ],
  };
}

export function chatLeftOffline(chat: { visitorName: string | null; visitorEmail: string | null; currentPage: string | null; body: string }, adminChatUrl: string): EmailContent {
  const who = chat.visitorName || 'A visitor';
  return {
    subject: `Chat message left while offline from ${who}`,
    heading: 'A visitor left a chat message',
    blocks: [
      { type: 'facts', rows: [['Name', who], ['Email', chat.visitorEmail || 'Not given'], ['Page', chat.currentPage || 'Unknown']] },
      { type: 'paragraph', text: chat.body },
      { type: 'button', label: 'Open the chat console', href: adminChatUrl },
    ],
  };
}

/**
 * A staff reply to a visitor who left an email in the chat and is not on the
 * site: the conversation so far (oldest first), and the way back to it.
 */
export function chatReplyToVisitor(messages: { sender: ChatSender; senderName: string | null; body: string }[], siteUrl: string): EmailContent {
  return {
    subject: 'NotaryOnline replied to your chat message',
    heading: 'We replied to your message',
    blocks: [
      { type: 'paragraph', text: 'Thank you for writing to us. Here is our reply, with the conversation so far:' },
      { type: 'list', items: messages.map((m) => `${m.sender === 'visitor' ? 'You' : m.sender === 'staff' ? (m.senderName ?? 'NotaryOnline') : 'NotaryOnline'}: ${m.body}`) },
      { type: 'paragraph', text: 'Reply to this email, or open the chat on our website from the same browser to continue the conversation.' },
      { type: 'button', label: 'Continue on NotaryOnline', href: siteUrl },
    ],
  };
}

/**
 * `keptUntil`: when the notarized copies are deleted (NOTARIZED_DOCUMENT_RETENTION_DAYS after
 * sealing, decision 092); `verifyUrl`: the public page anyone can check the document on (decision 091).
 */
export function notarizedDocumentReady(b: BookingForMail, manageUrl: string, options: { keptUntil: Date; verifyUrl: string }): EmailContent {
  const until = formatInZone(options.keptUntil, b.timeZone).date;
  return {
    subject: actLabels.documentReadySubject,
    heading: actLabels.documentReadySubject,
    preheader: `Reference ${b.reference}`,
    blocks: [
      { type: 'paragraph', text: `Hello ${b.customer?.firstName || 'there'}, your notarization is complete. Your notarized document is signed and sealed by the notary and can be checked in any PDF reader.` },
      { type: 'facts', rows: [['Reference', b.reference], ['Documents', b.documentNames.join('\n') || '—'], ['Available to download until', until]] },
      { type: 'button', label: actLabels.downloadNotarized, href: manageUrl },
      { type: 'paragraph', text: `We keep your notarized document for download until ${until}; after that it is deleted, so save your own copy. Keep this email: the link above opens your private booking page, where you can download it again until then.` },
      { type: 'paragraph', text: `Anyone you give the document to (a bank, a court, a county recorder) can check it at ${options.verifyUrl}: they drop the PDF or type the verification code printed at the foot of its certificate page.` },
      { type: 'button', label: verifyCopy.title, href: options.verifyUrl },
      supportNote,
    ],
  };
}

export function kbaLockedOut(b: BookingForMail, adminPath: string, lockedUntil: string): EmailContent {
  return {
    subject: `Identity questions failed twice (${b.reference})`,
    heading: 'A customer is locked out of the identity questions',
    blocks: [
      { type: 'paragraph', text: `The customer of booking ${b.reference} did not pass the identity questions twice and may not try again until ${lockedUntil}. If the appointment is before then, please contact them to move it.` },
      { type: 'facts', rows: [['Reference', b.reference], ['Customer', customerName(b)], ['Appointment', customerTime(b)]] },
      { type: 'paragraph', text: `Open the booking in the console: ${adminPath}` },
    ],
  };
}

export function identityAttemptsExhausted(b: BookingForMail, adminPath: string): EmailContent {
  return {
    subject: `Identity verification failed ${maxIdentityAttempts} times (${b.reference})`,
    heading: 'A customer could not verify their identity',
    blocks: [
      { type: 'paragraph', text: `The customer of booking ${b.reference} used all ${maxIdentityAttempts} identity verification attempts without success. Please contact them to arrange another way before the appointment.` },
      { type: 'facts', rows: [['Reference', b.reference], ['Customer', customerName(b)], ['Appointment', customerTime(b)]] },
      { type: 'paragraph', text: `Open the booking in the console: ${adminPath}` },
    ],
  };
}

/** Two ways of being served (issue 28): a scheduled time, or Notarize now with the next notary free. */
export const waysToBeServed =
  'You can be served two ways: book a scheduled time, or choose Notarize now and wait in line for the next notary on duty.';

/** Notarize now, paid: the customer waits in the lobby for the next notary on duty. */
function onDemandConfirmation(b: BookingForMail, manageUrl: string): EmailContent {
  return {
    subject: `You are in line for a notary (${b.reference})`,
    heading: 'You are in line for a notary',
    preheader: `Notarize now — reference ${b.reference}`,
    blocks: [
      { type: 'paragraph', text: `Hello ${b.customer?.firstName || 'there'}, thank you for choosing Notarize now with ${site.brand}. Keep the waiting page open and verify your identity there while you wait: the next notary on duty joins you there by secure video.` },
      {
        type: 'facts',
        rows: [
          ['Reference', b.reference],
          ['Date and time', 'Now (the next notary on duty)'],
          ['Documents', b.documentNames.length ? b.documentNames.join('\n') : 'None'],
          ['Amount paid', paidAmount(b)],
        ],
      },
      prepareList,
      { type: 'button', label: 'Return to the waiting room', href: `${manageUrl}/session` },
      { type: 'paragraph', text: 'If no notary can take your call in time, you choose a scheduled time or a full refund.' },
      { type: 'button', label: 'View your booking', href: manageUrl },
      supportNote,
    ],
  };
}

/** A co-signer or witness is invited: their own link (identity, device check, the room), never the customer's. */
export function participantInvitation(b: BookingForMail, invitee: { name: string; role: ParticipantRole }, invitationUrl: string): EmailContent {
  const who = customerName(b) || 'The person who booked';
  const as = invitee.role === 'witness' ? 'as a witness' : 'as a signer';
  return {
    subject: `${participantLabels.inviteSubject} (${b.reference})`,
    heading: participantLabels.inviteSubject,
    preheader: `${who} has invited you to an online notary session on ${customerTime(b)}.`,
    blocks: [
      { type: 'paragraph', text: `Hello ${invitee.name}, ${who} has invited you ${as} to a secure online notary session with ${site.brand}. Before the session, verify your identity and check your camera and microphone from your own private page.` },
      { type: 'facts', rows: [['Reference', b.reference], ['Date and time', customerTime(b)], ['Your role', participantRoleLabels[invitee.role]]] },
      { type: 'button', label: 'Open your invitation', href: invitationUrl },
      { type: 'note', text: 'This link is yours alone: do not forward it. It opens your identity check and, from 10 minutes before the start, the video session.' },
      prepareList,
      supportNote,
    ],
  };
}

/** Staff: a Notarize now customer waited past the limit (no personal details beyond the reference). */
export function onDemandTimedOut(b: BookingForMail, adminPath: string, maxWaitMinutes: number): EmailContent {
  return {
    subject: `Notarize now: nobody accepted ${b.reference} within ${maxWaitMinutes} minutes`,
    heading: 'A Notarize now customer was not served',
    blocks: [
      { type: 'paragraph', text: `No notary accepted booking ${b.reference} within ${maxWaitMinutes} minutes. The customer is offered a scheduled time or a full refund. Please check who is on duty.` },
      { type: 'facts', rows: [['Reference', b.reference], ['Customer', customerName(b)]] },
      { type: 'paragraph', text: `Open the booking in the console: ${adminPath}` },
    ],
  };
}
