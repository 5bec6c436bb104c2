import type { Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import type { MailAttachment } from '../../adapters/mail/index.ts';
import { bookingCalendar } from './calendar.ts';
import { renderEmail, type EmailContent } from './layout.ts';
import { enqueueMail, loadBookingForMail, loadChatMessage, loadContactMessage, type BookingForMail } from './repository.ts';
import * as templates from './templates.ts';

/**
 * What the rest of the product tells the notifications feature. Each call runs
 * inside the caller's transaction and only writes outbox rows, so a message
 * exists exactly when the change that caused it was committed; the outbox
 * worker delivers it afterwards.
 */
export async function onBookingConfirmed(tx: Tx, deps: Deps, event: { bookingId: string; manageToken: string }): Promise<void> {
  const booking = await bookingWithCustomer(tx, deps, event.bookingId, 'confirmed');
  if (!booking) return;
  const manageUrl = `${deps.config.publicUrl}/booking/${event.manageToken}`;
  await enqueue(tx, deps, {
    kind: 'booking_confirmation',
    to: booking.customer!.email,
    content: templates.bookingConfirmation(booking, manageUrl),
    attachments: calendarAttachment(deps, booking, { manageUrl }),
    // The raw token exists only here: it leaves the outbox once the email is sent.
    secrets: [event.manageToken],
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
  await enqueue(tx, deps, {
    kind: 'booking_cancelled',
    to: booking.customer!.email,
    content: templates.bookingCancelledCustomer(booking, event),
    attachments: calendarAttachment(deps, booking, { cancelled: true }),
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
  event: { bookingId: string; previousStartsAt: Date; by: 'customer' | 'staff' },
): Promise<void> {
  const booking = await bookingWithCustomer(tx, deps, event.bookingId, 'rescheduled');
  if (!booking) return;
  await enqueue(tx, deps, {
    kind: 'booking_rescheduled',
    to: booking.customer!.email,
    content: templates.bookingRescheduledCustomer(booking, event.previousStartsAt, event.by),
    attachments: calendarAttachment(deps, booking, {}),
  });
  await enqueue(tx, deps, {
    kind: 'booking_rescheduled_staff',
    to: deps.config.STAFF_EMAIL,
    replyTo: booking.customer!.email,
    content: templates.bookingRescheduledStaff(booking, event.previousStartsAt, event.by),
  });
}

/** Contact form → staff; business inquiry → sales (spec section 7). */
export async function onContactMessage(tx: Tx, deps: Deps, event: { messageId: string }): Promise<void> {
  const message = await loadContactMessage(tx, event.messageId);
  if (!message) throw new Error(`contact message ${event.messageId} not found`);
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

/** Called by the worker's periodic check: one reminder per appointment time. */
export async function enqueueReminder(tx: Tx, deps: Deps, bookingId: string): Promise<boolean> {
  const booking = await bookingWithCustomer(tx, deps, bookingId, 'reminder');
  if (!booking?.startsAt) return false;
  const id = await enqueue(tx, deps, {
    kind: 'booking_reminder',
    to: booking.customer!.email,
    content: templates.bookingReminder(booking),
    attachments: calendarAttachment(deps, booking, {}),
    // Keyed by time too: an appointment moved by staff gets a reminder for its new time.
    dedupeKey: `reminder:${booking.id}:${booking.startsAt.toISOString()}`,
  });
  return id !== null;
}

// ---------------------------------------------------------------------------------

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
  const { ics, filename } = bookingCalendar(deps, { id: booking.id, reference: booking.reference, startsAt: booking.startsAt }, options);
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
    secrets?: string[];
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
      secrets: entry.secrets,
    },
  });
}
