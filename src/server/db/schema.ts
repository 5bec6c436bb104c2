import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bookingStatuses, type BookingStatus } from '../../shared/booking.ts';

/**
 * The whole data model. Every instant is `timestamptz` (UTC inside, shown in a
 * named zone). Money is integer cents. Status columns are text typed by the
 * lists in `src/shared/booking.ts` and below so adding a state needs no enum migration.
 */
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

// One list of booking statuses for the database and both sides of the API.
export { bookingStatuses, type BookingStatus };

export const staffRoles = ['admin', 'staff', 'notary'] as const;
export type StaffRole = (typeof staffRoles)[number];

export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull().default(''),
    email: text('email').notNull(),
    phone: text('phone'),
    createdAt: createdAt(),
  },
  (t) => [index('customers_email_idx').on(sql`lower(${t.email})`)],
);

export const staffUsers = pgTable(
  'staff_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    role: text('role', { enum: staffRoles }).notNull(),
    passwordHash: text('password_hash'),
    totpKey: text('totp_key'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** The last TOTP time step accepted (unix seconds / 30): a code is good once, never replayed. */
    totpLastStep: integer('totp_last_step'),
    active: boolean('active').notNull().default(true),
    timeZone: text('time_zone').notNull().default('America/Chicago'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('staff_users_email_idx').on(sql`lower(${t.email})`)],
);

export const staffSessions = pgTable(
  'staff_sessions',
  {
    /** SHA-256 of the session token, hex; the token itself is never stored. */
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
    twoFactorVerified: boolean('two_factor_verified').notNull().default(false),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [index('staff_sessions_user_idx').on(t.userId)],
);

export const staffInvites = pgTable('staff_invites', {
  id: uuid('id').primaryKey().defaultRandom(),
  tokenHash: text('token_hash').notNull().unique(),
  email: text('email').notNull(),
  role: text('role', { enum: staffRoles }).notNull(),
  invitedBy: uuid('invited_by').references(() => staffUsers.id, { onDelete: 'set null' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const bookings = pgTable(
  'bookings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Customer-facing reference, e.g. NOTARY-7K3M9Q2X. */
    reference: text('reference').notNull().unique(),
    status: text('status', { enum: bookingStatuses }).notNull().default('draft'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    /** IANA zone the customer chose to see times in. */
    timeZone: text('time_zone').notNull().default('America/Chicago'),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    notaryId: uuid('notary_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    /** SHA-256 of the private manage-link token. */
    manageTokenHash: text('manage_token_hash').unique(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancellationReason: text('cancellation_reason'),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('bookings_starts_at_idx').on(t.startsAt),
    index('bookings_status_idx').on(t.status),
    index('bookings_notary_idx').on(t.notaryId),
  ],
);

export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /** The visitor's file name, kept only as data (never part of a path). */
    originalName: text('original_name').notNull(),
    /** Judged from the file's bytes, not from what the browser declared. */
    contentType: text('content_type'),
    sizeBytes: integer('size_bytes'),
    storageKey: text('storage_key').notNull().unique(),
    /** pending → stored (→ infected) ; deleted when retention removes the bytes. */
    status: text('status', { enum: ['pending', 'stored', 'infected', 'deleted'] })
      .notNull()
      .default('pending'),
    scanStatus: text('scan_status', { enum: ['unscanned', 'clean', 'infected', 'skipped'] })
      .notNull()
      .default('unscanned'),
    uploadTokenHash: text('upload_token_hash').unique(),
    uploadExpiresAt: timestamp('upload_expires_at', { withTimezone: true }),
    storedAt: timestamp('stored_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('documents_booking_idx').on(t.bookingId)],
);

export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['stripe', 'test'] }).notNull(),
    providerPaymentId: text('provider_payment_id').notNull().unique(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    /** Mirrors the provider's PaymentIntent status, plus 'refunded'. */
    status: text('status').notNull(),
    method: text('method', { enum: ['card', 'cashapp'] }),
    failureMessage: text('failure_message'),
    refundedCents: integer('refunded_cents').notNull().default(0),
    providerRefundId: text('provider_refund_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('payments_booking_idx').on(t.bookingId)],
);

/** Provider events (Stripe webhook ids) already handled: each is processed once. */
export const processedEvents = pgTable('processed_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['contact', 'business', 'chat_offline'] }).notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    company: text('company'),
    interest: text('interest'),
    message: text('message').notNull().default(''),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    handledBy: uuid('handled_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt)],
);

/** Every email, written in the same transaction as the change that causes it. */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    /** Optional: the same key twice is one message (e.g. `reminder:{bookingId}`). */
    dedupeKey: text('dedupe_key').unique(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_due_idx').on(t.status, t.nextAttemptAt)],
);

export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** SHA-256 of the visitor's HttpOnly cookie token. */
    visitorTokenHash: text('visitor_token_hash').notNull().unique(),
    visitorName: text('visitor_name'),
    visitorEmail: text('visitor_email'),
    currentPage: text('current_page'),
    status: text('status', { enum: ['open', 'closed'] })
      .notNull()
      .default('open'),
    /** Highest message id each side has read, for unread counts. */
    staffReadUpTo: bigint('staff_read_up_to', { mode: 'number' }).notNull().default(0),
    visitorReadUpTo: bigint('visitor_read_up_to', { mode: 'number' }).notNull().default(0),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('chat_conversations_last_idx').on(t.lastMessageAt)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    /** Monotonic id: the order of a conversation. */
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id, { onDelete: 'cascade' }),
    /** Chosen by the sender; a resend after a reconnect is recognised, not duplicated. */
    clientId: text('client_id').notNull(),
    sender: text('sender', { enum: ['visitor', 'staff', 'system'] }).notNull(),
    staffUserId: uuid('staff_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('chat_messages_client_idx').on(t.conversationId, t.clientId)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorType: text('actor_type', { enum: ['customer', 'staff', 'system', 'provider'] }).notNull(),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    data: jsonb('data'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_entity_idx').on(t.entityType, t.entityId)],
);

/** Fixed-window counters shared by every node (see `http/rate-limit.ts`). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
