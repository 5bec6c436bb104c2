import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx, type Tx } from '../../db/client.ts';
import { bookings, chatConversations, chatMessages, contactMessages, customers, documents, outbox, payments, sessionParticipants } from '../../db/schema.ts';
import type { MailMessage } from '../../adapters/mail/index.ts';
import { currentPayment } from '../../../shared/payments.ts';

/**
 * What an outbox row carries: the rendered message (its Message-ID is the
 * row's), with placeholders where private links go (see ./secrets.ts).
 */
export interface OutboxPayload {
  message: Omit<MailMessage, 'messageId'>;
  /** Placeholder name → value sealed with the data-encryption key; dropped once the message is sent. */
  sealedSecrets?: Record<string, string>;
  /**
   * Rows queued before sealed secrets existed carried raw strings here; they are
   * blanked when sent and hidden in the console. Never written any more.
   */
  secrets?: string[];
}

export interface OutboxRow {
  id: string;
  kind: string;
  payload: OutboxPayload;
  attempts: number;
  createdAt: Date;
  lockedUntil: Date;
}

/**
 * Adds a message in the caller's transaction. With a `dedupeKey` already
 * present the call is a no-op (returns null): one reminder per appointment.
 */
export async function enqueueMail(
  tx: DbOrTx,
  entry: { kind: string; payload: OutboxPayload; dedupeKey?: string; now?: Date },
): Promise<string | null> {
  const rows = await tx
    .insert(outbox)
    .values({ kind: entry.kind, payload: entry.payload, dedupeKey: entry.dedupeKey ?? null, ...(entry.now ? { nextAttemptAt: entry.now, createdAt: entry.now } : {}) })
    .onConflictDoNothing({ target: outbox.dedupeKey })
    .returning({ id: outbox.id });
  return rows[0]?.id ?? null;
}

/** Whether a message with this dedupe key was already queued (so no new link is minted for nothing). */
export async function outboxHasKey(tx: DbOrTx, dedupeKey: string): Promise<boolean> {
  const [row] = await tx.select({ id: outbox.id }).from(outbox).where(eq(outbox.dedupeKey, dedupeKey));
  return row !== undefined;
}

/**
 * Claims the oldest due message for `leaseMs`. `FOR UPDATE SKIP LOCKED` lets
 * several workers (processes, nodes) claim side by side without waiting on
 * or taking each other's rows; the lease hands a row to another worker only
 * if its holder died mid-send. The attempt is counted at claim time, so a
 * crash during sending still counts.
 */
export async function claimNextDue(db: DbOrTx, now: Date, leaseMs: number): Promise<OutboxRow | null> {
  const until = new Date(now.getTime() + leaseMs);
  const rows = await queryRows<{ id: string; kind: string; payload: OutboxPayload; attempts: number; created_at: string | Date; locked_until: string | Date }>(
    db,
    sql`
      update outbox set locked_until = ${until.toISOString()}::timestamptz, attempts = attempts + 1
      where id = (
        select id from outbox
        where status = 'pending'
          and next_attempt_at <= ${now.toISOString()}::timestamptz
          and (locked_until is null or locked_until <= ${now.toISOString()}::timestamptz)
        order by next_attempt_at, created_at
        limit 1
        for update skip locked
      )
      returning id, kind, payload, attempts, created_at, locked_until`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    kind: row.kind,
    payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as OutboxPayload) : row.payload,
    attempts: Number(row.attempts),
    createdAt: new Date(row.created_at),
    lockedUntil: new Date(row.locked_until),
  };
}

/** Right after the transport accepted the message: never sent again. */
export async function markSent(db: DbOrTx, row: OutboxRow, now: Date, payload = sentPayload(row)): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'sent', sentAt: now, lockedUntil: null, lastError: null, payload })
    .where(and(eq(outbox.id, row.id), eq(outbox.status, 'pending')));
}

/** What the row keeps once sent: secrets blanked. */
export function sentPayload(row: OutboxRow): OutboxPayload {
  // Once sent, nothing that opens a private link stays: not even its sealed form.
  return redactPayload(row.payload);
}

export async function markAttemptFailed(
  db: DbOrTx,
  row: OutboxRow,
  outcome: { error: string; nextAttemptAt: Date; final: boolean },
): Promise<void> {
  await db
    .update(outbox)
    .set({
      status: outcome.final ? 'failed' : 'pending',
      lastError: outcome.error.slice(0, 2000),
      nextAttemptAt: outcome.nextAttemptAt,
      lockedUntil: null,
    })
    .where(and(eq(outbox.id, row.id), eq(outbox.status, 'pending')));
}

/** The payload without its secrets: sealed values dropped, legacy raw ones blanked; placeholders stay. */
export function redactPayload(payload: OutboxPayload, replacement = '[removed after sending]'): OutboxPayload {
  if (!payload.secrets?.length) return { message: payload.message };
  const blank = (text: string) => payload.secrets!.reduce((acc, secret) => (secret ? acc.split(secret).join(replacement) : acc), text);
  const { message } = payload;
  return {
    message: {
      ...message,
      text: blank(message.text),
      html: blank(message.html),
      attachments: message.attachments?.map((a) => ({ ...a, content: blank(a.content) })),
    },
  };
}

// --- What the messages are about -------------------------------------------------

export interface BookingForMail {
  id: string;
  reference: string;
  status: string;
  /** 'on_demand': Notarize now, served by the next notary free (issue 28). */
  kind: 'scheduled' | 'on_demand';
  startsAt: Date | null;
  /** iCalendar SEQUENCE of the booking's current entry. */
  calendarSequence: number;
  timeZone: string;
  priceCents: number;
  currency: string;
  customer: { firstName: string; lastName: string; email: string; phone: string | null } | null;
  documentNames: string[];
  payment: { amountCents: number; refundedCents: number; currency: string; method: 'card' | 'cashapp' | null; status: string } | null;
  /** Co-signers and witnesses added while booking, paid with it (decision 125). */
  participants: { name: string; role: 'signer' | 'witness'; feeCents: number }[];
}

export async function loadBookingForMail(tx: DbOrTx, bookingId: string): Promise<BookingForMail | null> {
  const [row] = await tx
    .select({
      id: bookings.id,
      reference: bookings.reference,
      status: bookings.status,
      kind: bookings.kind,
      startsAt: bookings.startsAt,
      calendarSequence: bookings.calendarSequence,
      timeZone: bookings.timeZone,
      priceCents: bookings.priceCents,
      currency: bookings.currency,
      firstName: customers.firstName,
      lastName: customers.lastName,
      email: customers.email,
      phone: customers.phone,
    })
    .from(bookings)
    .leftJoin(customers, eq(customers.id, bookings.customerId))
    .where(eq(bookings.id, bookingId));
  if (!row) return null;
  const docs = await tx
    .select({ name: documents.originalName })
    .from(documents)
    .where(and(eq(documents.bookingId, bookingId), eq(documents.status, 'stored')))
    .orderBy(asc(documents.createdAt));
  // Its own query (the booking service notifies through this feature, so it cannot
  // call back into it), the same rule: shared/payments.ts `currentPayment`.
  const payment = currentPayment(
    await tx
      .select({
        amountCents: payments.amountCents,
        refundedCents: payments.refundedCents,
        currency: payments.currency,
        method: payments.method,
        status: payments.status,
      })
      .from(payments)
      .where(and(eq(payments.bookingId, bookingId), eq(payments.purpose, 'booking')))
      .orderBy(sql`${payments.createdAt} desc`),
  );
  const participants = await tx
    .select({ name: sessionParticipants.name, role: sessionParticipants.role, feeCents: sessionParticipants.feeCents })
    .from(sessionParticipants)
    .where(and(eq(sessionParticipants.bookingId, bookingId), isNull(sessionParticipants.paymentId)))
    .orderBy(asc(sessionParticipants.createdAt), asc(sessionParticipants.id));

  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    kind: row.kind,
    startsAt: row.startsAt,
    calendarSequence: row.calendarSequence,
    timeZone: row.timeZone,
    priceCents: row.priceCents,
    currency: row.currency,
    customer: row.email ? { firstName: row.firstName ?? '', lastName: row.lastName ?? '', email: row.email, phone: row.phone } : null,
    documentNames: docs.map((d) => d.name),
    payment: payment ?? null,
    participants,
  };
}

export async function loadContactMessage(tx: DbOrTx, messageId: string) {
  const [row] = await tx
    .select({
      id: contactMessages.id,
      kind: contactMessages.kind,
      name: contactMessages.name,
      email: contactMessages.email,
      phone: contactMessages.phone,
      company: contactMessages.company,
      interest: contactMessages.interest,
      message: contactMessages.message,
      createdAt: contactMessages.createdAt,
    })
    .from(contactMessages)
    .where(eq(contactMessages.id, messageId));
  return row ?? null;
}

export async function loadChatMessage(tx: DbOrTx, conversationId: string, messageId: string) {
  const [row] = await tx
    .select({
      visitorName: chatConversations.visitorName,
      visitorEmail: chatConversations.visitorEmail,
      currentPage: chatConversations.currentPage,
      body: chatMessages.body,
      createdAt: chatMessages.createdAt,
    })
    .from(chatMessages)
    .innerJoin(chatConversations, eq(chatConversations.id, chatMessages.conversationId))
    .where(and(eq(chatMessages.conversationId, conversationId), eq(chatMessages.id, Number(messageId))));
  return row ?? null;
}

/**
 * Confirmed appointments starting within `windowMs` that have not had a
 * reminder for their current time, and were booked before that window
 * opened (a booking made 3 hours ahead needs no reminder on top of its
 * confirmation).
 */
export async function findBookingsDueForReminder(db: DbOrTx, now: Date, windowMs: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
      select id from bookings
      where status = 'confirmed'
        and starts_at > ${now.toISOString()}::timestamptz
        and starts_at <= ${new Date(now.getTime() + windowMs).toISOString()}::timestamptz
        and coalesce(confirmed_at, created_at) < starts_at - ${`${windowMs} milliseconds`}::interval
        and (reminder_sent_at is null or reminder_sent_at < starts_at - ${`${windowMs} milliseconds`}::interval)
      order by starts_at
      limit 100`,
  );
  return rows.map((r) => r.id);
}

export async function markReminderQueued(tx: Tx, bookingId: string, now: Date): Promise<void> {
  await tx.update(bookings).set({ reminderSentAt: now }).where(eq(bookings.id, bookingId));
}
