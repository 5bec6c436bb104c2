import { sql } from 'drizzle-orm';
import { site } from '../../shared/site.ts';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  smallint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bookingStatuses, type BookingStatus } from '../../shared/booking.ts';
import { sessionOutcomes } from '../../shared/session.ts';

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
  (t) => [
    index('customers_email_idx').on(sql`lower(${t.email})`),
    // A search with an address in it (`jane.doe@exa`): the local part's end, reversed, by prefix (decision 115).
    index('customers_email_local_reversed_idx').on(sql`reverse(split_part(lower(${t.email}), '@', 1)) text_pattern_ops`),
    // The same search can match a name only if the name has an `@`: those few, by a partial index (decision 135).
    index('customers_name_with_at_idx').on(t.id).where(sql`strpos(${t.firstName} || ' ' || ${t.lastName}, '@') > 0`),
  ],
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
    timeZone: text('time_zone').notNull().default(site.businessTimeZone),
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
    /** 'scheduled' (a slot) or 'on_demand' (Notarize now: no slot; starts when a notary accepts, issue 28). */
    kind: text('kind', { enum: ['scheduled', 'on_demand'] }).notNull().default('scheduled'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    /** IANA zone the customer chose to see times in. */
    timeZone: text('time_zone').notNull().default(site.businessTimeZone),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    notaryId: uuid('notary_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    /** SHA-256 of the private manage-link token. */
    manageTokenHash: text('manage_token_hash').unique(),
    /**
     * The manage-link token sealed with the data-encryption key (secret-box), so
     * an email can carry the link at send time while a database dump alone holds
     * no usable token (docs/decisions/023-secrets-at-rest.md).
     */
    manageTokenSealed: text('manage_token_sealed'),
    /** iCalendar SEQUENCE of the booking's entry: raised by every change a calendar must pick up (time, cancellation). */
    calendarSequence: integer('calendar_sequence').notNull().default(0),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancellationReason: text('cancellation_reason'),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    /** When the current notary was assigned, and when they first opened it: the console's "new" badge. */
    notaryAssignedAt: timestamp('notary_assigned_at', { withTimezone: true }),
    notarySeenAt: timestamp('notary_seen_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * What the console's search reads (decision 135): the reference, the customer's name and
     * address, lowercased, joined by U+001F (no field holds a control character, and a search
     * with one matches nothing). Kept by triggers (migration 0022) on `bookings` (reference,
     * customer) and `customers` (name, address); never written by the application.
     */
    searchText: text('search_text').notNull().default(''),
  },
  (t) => [
    // The console's pages walk (starts_at, id) forwards (upcoming) and backwards (past),
    // and undated bookings by (created_at, id): keyset pagination by index, no sort.
    index('bookings_starts_at_id_idx').on(t.startsAt, t.id),
    index('bookings_undated_idx').on(t.createdAt, t.id).where(sql`${t.startsAt} is null`),
    index('bookings_status_idx').on(t.status),
    index('bookings_notary_idx').on(t.notaryId),
    index('bookings_customer_idx').on(t.customerId),
    // The console's search (`like '%…%'`) by trigram (pg_trgm), on PostgreSQL and PGlite alike. A small
    // pending list (64 kB, the least allowed): every search scans the pending list whole (decision 115).
    index('bookings_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`).with({ gin_pending_list_limit: 64 }),
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
    /** 'booking': the booking's own price; 'signer': a co-signer added from the booking page, paid on its own (decision 125). */
    purpose: text('purpose', { enum: ['booking', 'signer'] }).notNull().default('booking'),
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
    kind: text('kind', { enum: ['contact', 'business', 'chat_offline', 'waitlist'] }).notNull(),
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
    /**
     * Kept with each message so per-message work and the console's list never
     * count or search a conversation's messages: visitor messages after
     * staff_read_up_to, and the last message's start and sender.
     */
    staffUnread: integer('staff_unread').notNull().default(0),
    lastMessageBody: text('last_message_body'),
    lastMessageSender: text('last_message_sender', { enum: ['visitor', 'staff', 'system'] }),
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
  (t) => [
    uniqueIndex('chat_messages_client_idx').on(t.conversationId, t.clientId),
    // A conversation's messages in order (history, replay, the latest quoted in a reply email).
    index('chat_messages_conversation_idx').on(t.conversationId, t.id),
  ],
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

/** Fixed-window counters shared by every node (see `rate-limit.ts`). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

// ---- The notarial act: identity, signing and sealing, the journal ------------

export const identityStatuses = ['pending', 'processing', 'verified', 'failed', 'canceled'] as const;
export type IdentityStatus = (typeof identityStatuses)[number];

export const participantRoles = ['signer', 'witness'] as const;
export type ParticipantRole = (typeof participantRoles)[number];
export const participantStatuses = ['pending', 'invited', 'joined', 'removed', 'not_completed'] as const;
export type ParticipantStatus = (typeof participantStatuses)[number];

/**
 * The people of a session besides the booking's customer (the primary signer)
 * and the notary: co-signers and witnesses (docs/decisions/120-session-participants.md).
 * Each has a private link of their own (SHA-256 only, like the manage token);
 * their identity proofing rows carry their id. Never deleted: a removed
 * participant keeps their row, with who removed them and when.
 */
export const sessionParticipants = pgTable(
  'session_participants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    role: text('role', { enum: participantRoles }).notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    status: text('status', { enum: participantStatuses }).notNull().default('invited'),
    /** SHA-256 of the participant's own link token. */
    tokenHash: text('token_hash').notNull().unique(),
    /** The fee charged for this participant (0 for witnesses); the payment that took it, when added after booking. */
    feeCents: integer('fee_cents').notNull().default(0),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    /** Who added them: 'customer' (the booking's link) or a staff id. */
    createdBy: text('created_by').notNull(),
    removedBy: uuid('removed_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    removedReason: text('removed_reason'),
    joinedAt: timestamp('joined_at', { withTimezone: true }),
    /**
     * Their own answers before signing (a signer or a witness who signs a field;
     * docs/decisions/123-each-signer-their-own-fields.md): "I consent to sign
     * electronically" with time and address, "Where are you right now?", the
     * notary's confirmation for a signer abroad, their answer to the oath.
     */
    consentAt: timestamp('consent_at', { withTimezone: true }),
    consentAddress: text('consent_address'),
    signerLocation: text('signer_location'),
    abroadConfirmedAt: timestamp('abroad_confirmed_at', { withTimezone: true }),
    abroadConfirmedBy: uuid('abroad_confirmed_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    oathAnsweredAt: timestamp('oath_answered_at', { withTimezone: true }),
    oathKind: text('oath_kind', { enum: ['swear', 'affirm'] }),
    createdAt: createdAt(),
  },
  (t) => [index('session_participants_booking_idx').on(t.bookingId)],
);

/**
 * A credible witness (docs/decisions/124-credible-witness.md): a witness of
 * the session whom the notary records, on the recording, as identifying a
 * named signer — the booking's customer (`signer_participant_id` NULL) or a
 * co-signer. One per witness; it goes in that signer's journal entries.
 */
export const credibleWitnesses = pgTable(
  'credible_witnesses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    witnessId: uuid('witness_id')
      .notNull()
      .unique()
      .references(() => sessionParticipants.id, { onDelete: 'cascade' }),
    /** The signer identified; NULL = the booking's customer. */
    signerParticipantId: uuid('signer_participant_id').references(() => sessionParticipants.id, { onDelete: 'cascade' }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
    recordedBy: uuid('recorded_by').references(() => staffUsers.id, { onDelete: 'set null' }),
  },
  (t) => [index('credible_witnesses_booking_idx').on(t.bookingId)],
);

/**
 * One identity-verification attempt per row (up to 3 per booking). Personal
 * data: the ID and selfie images live in private storage (test provider) or at
 * Stripe; the details here are shown only to the booking's notary and admins.
 */
export const identityVerifications = pgTable(
  'identity_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['stripe', 'test'] }).notNull(),
    /** The co-signer or witness proving their identity; null for the booking's customer. */
    participantId: uuid('participant_id').references(() => sessionParticipants.id, { onDelete: 'cascade' }),
    providerSessionId: text('provider_session_id').notNull().unique(),
    attempt: integer('attempt').notNull(),
    status: text('status', { enum: identityStatuses }).notNull().default('pending'),
    failureMessage: text('failure_message'),
    nameOnId: text('name_on_id'),
    documentType: text('document_type'),
    issuingState: text('issuing_state'),
    /** ISO date (YYYY-MM-DD) the ID expires. */
    expiresOn: text('expires_on'),
    selfieMatch: boolean('selfie_match'),
    /** The last 4 characters of the ID's number (the journal records them; never the whole number). */
    documentNumberLast4: text('document_number_last4'),
    /** Test provider only: private storage keys of the ID front, back and selfie. */
    imageKeys: jsonb('image_keys').$type<string[]>(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    confirmedBy: uuid('confirmed_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    /** Set by retention when the images and details are erased. */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('identity_verifications_person_attempt').on(t.bookingId, t.participantId, t.attempt).nullsNotDistinct()],
);

export const kbaStatuses = ['open', 'checking', 'passed', 'failed'] as const;
export type KbaStatus = (typeof kbaStatuses)[number];

/**
 * Knowledge-based authentication: one row per quiz (docs/decisions/085-knowledge-based-authentication.md).
 * The questions shown are kept (they are public to the signer); what marks them — the
 * correct choices of the test provider — is sealed and cleared when the quiz ends. The
 * signer's date of birth and address are sealed (`person_sealed`); the SSN digits never
 * reach the database.
 */
export const kbaAttempts = pgTable(
  'kba_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /** The co-signer or witness answering; null for the booking's customer. */
    participantId: uuid('participant_id').references(() => sessionParticipants.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    provider: text('provider', { enum: ['test', 'idology'] }).notNull(),
    /** The provider's transaction reference (IDology's id-number). */
    providerReference: text('provider_reference').notNull(),
    status: text('status', { enum: kbaStatuses }).notNull().default('open'),
    questions: jsonb('questions').notNull().$type<{ id: string; type: string; prompt: string; choices: { id: string; label: string }[] }[]>(),
    /** Sealed answer key (or provider state) for the quiz's lifetime; null once it ended. */
    answerKeySealed: text('answer_key_sealed'),
    /** Sealed JSON of the signer's legal name, date of birth and home address. */
    personSealed: text('person_sealed').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    correctCount: integer('correct_count'),
    /** 'timeout' when the time ran out, 'provider' when the provider declined. */
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
  },
  (t) => [unique('kba_attempts_person_attempt').on(t.bookingId, t.participantId, t.attempt).nullsNotDistinct()],
);

/** A notary's commission (shown in the seal) and signing certificate (PKCS#12, encrypted). */
export const notaryProfiles = pgTable('notary_profiles', {
  staffUserId: uuid('staff_user_id')
    .primaryKey()
    .references(() => staffUsers.id, { onDelete: 'cascade' }),
  commissionNumber: text('commission_number'),
  /** ISO date (YYYY-MM-DD). */
  commissionExpiresOn: text('commission_expires_on'),
  commissionState: text('commission_state').notNull().default('Iowa'),
  /** The venue printed on certificates: the county the notary performs from. */
  commissionCounty: text('commission_county'),
  /** The PKCS#12 bundle and its password, each sealed with the secret box (DATA_ENCRYPTION_KEY). */
  certificateP12: text('certificate_p12'),
  certificatePassword: text('certificate_password'),
  certificateKind: text('certificate_kind', { enum: ['uploaded', 'test'] }),
  certificateSubject: text('certificate_subject'),
  certificateExpiresAt: timestamp('certificate_expires_at', { withTimezone: true }),
  /** What the console shows of the certificate (issuer, validity, key usage…): public facts, read once from the bundle in the seal worker. */
  certificateInfo: jsonb('certificate_info').$type<{ subject: string; issuer: string; serialNumber: string; notBefore: string; notAfter: string; keyUsage: string[]; selfSigned: boolean }>(),
  updatedAt: updatedAt(),
});

export const notarialActTypes = ['acknowledgment', 'jurat', 'signature_witnessing', 'copy_certification'] as const;
export type NotarialActType = (typeof notarialActTypes)[number];

/**
 * One customer document through the act: where the signature goes, the
 * signature adopted, the certificate, and the sealed copy beside the original.
 */
export const notarialDocuments = pgTable(
  'notarial_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .unique()
      .references(() => documents.id, { onDelete: 'cascade' }),
    signatureKind: text('signature_kind', { enum: ['typed', 'drawn'] }),
    signatureText: text('signature_text'),
    /** PNG bytes, base64 (bounded), typed signatures rendered in the script font too. */
    signaturePng: text('signature_png'),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    actType: text('act_type', { enum: notarialActTypes }),
    sealedKey: text('sealed_key'),
    sealedSha256: text('sealed_sha256'),
    /** The PAdES baseline level the seal reached (B-B without a timestamp authority; docs/decisions/060). */
    signatureLevel: text('signature_level', { enum: ['B-B', 'B-T', 'B-LT', 'B-LTA'] }),
    pageCount: integer('page_count'),
    sealedAt: timestamp('sealed_at', { withTimezone: true }),
    sealedBy: uuid('sealed_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    /**
     * One seal at a time (docs/decisions/070-sealing-once.md): the request that
     * builds the sealed PDF holds this claim until its lease runs out; a
     * concurrent or repeated seal is answered from the row, never built twice.
     */
    sealClaim: uuid('seal_claim'),
    sealClaimUntil: timestamp('seal_claim_until', { withTimezone: true }),
    /** The notary marked the document as not notarizable (unreadable, refused): never sealed, does not block Finish. */
    notNotarizableAt: timestamp('not_notarizable_at', { withTimezone: true }),
    notNotarizableReason: text('not_notarizable_reason'),
    notNotarizableBy: uuid('not_notarizable_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    /** A supporting file (an ID photo, a reference copy): shown in the room, never signed, sealed or journaled. */
    supportingAt: timestamp('supporting_at', { withTimezone: true }),
    /** Set by retention when the sealed copy's bytes are deleted (NOTARIZED_DOCUMENT_RETENTION_DAYS); the journal keeps its hash. */
    sealedDeletedAt: timestamp('sealed_deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('notarial_documents_booking_idx').on(t.bookingId)],
);

export const documentFieldKinds = ['signature', 'initials', 'date', 'text'] as const;

/**
 * A field the notary placed on a document for a signer to fill
 * (docs/decisions/100-document-fields.md): a kind, a 1-based page, and a box
 * in fractions of the page (0..1, from its top left), so it lands in the same
 * place whatever size the page is shown or stamped at. `participantId` names
 * which signer fills it: NULL is the booking's customer. The value is the
 * adopted signature or initials (a PNG, base64), the date as written in the
 * signer's format, or the text typed.
 */
export const documentFields = pgTable(
  'document_fields',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: documentFieldKinds }).notNull(),
    page: integer('page').notNull(),
    x: doublePrecision('x').notNull(),
    y: doublePrecision('y').notNull(),
    width: doublePrecision('width').notNull(),
    height: doublePrecision('height').notNull(),
    /** Whose field it is: a co-signer or witness of the session; NULL = the booking's customer (decision 123). */
    participantId: uuid('participant_id').references(() => sessionParticipants.id, { onDelete: 'cascade' }),
    value: text('value'),
    filledAt: timestamp('filled_at', { withTimezone: true }),
    /** Who filled it: the customer's id, or the participant's. */
    filledBy: uuid('filled_by'),
    createdBy: uuid('created_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('document_fields_document_idx').on(t.documentId),
    index('document_fields_booking_idx').on(t.bookingId),
    check('document_fields_box', sql`${t.page} >= 1 and ${t.x} >= 0 and ${t.y} >= 0 and ${t.width} > 0 and ${t.height} > 0 and ${t.x} + ${t.width} <= 1.000001 and ${t.y} + ${t.height} <= 1.000001`),
  ],
);

/**
 * The notary journal. Append-only (a database trigger refuses UPDATE and
 * DELETE; see docs/decisions/036-journal-tamper-evidence.md), and each entry
 * carries the SHA-256 of the previous one, so a changed or removed row breaks
 * the chain that `npm run journal:verify` checks.
 */
export const journalEntries = pgTable(
  'journal_entries',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    notaryId: uuid('notary_id').notNull(),
    bookingId: uuid('booking_id'),
    kind: text('kind', { enum: ['act', 'correction'] }).notNull(),
    /** A correction names the entry it corrects. */
    correctsSeq: bigint('corrects_seq', { mode: 'number' }),
    performedAt: timestamp('performed_at', { withTimezone: true }).notNull(),
    data: jsonb('data').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    createdAt: createdAt(),
    /**
     * Which fields the hash covers: 1 = entries written before created_at was
     * hashed, 2 = every field (docs/decisions/090-journal-anchor.md). Written
     * by the app; the default only labels rows older than the column.
     */
    chainVersion: smallint('chain_version').notNull().default(1),
  },
  (t) => [
    index('journal_entries_notary_idx').on(t.notaryId, t.performedAt),
    // The public /verify page finds an act by the code printed on it, or by the sealed file's SHA-256.
    index('journal_entries_verification_code_idx').on(sql`(${t.data}->>'verificationCode')`),
    index('journal_entries_sealed_sha256_idx').on(sql`(${t.data}->>'sealedSha256')`),
  ],
);

/**
 * Signed checkpoints of the journal (docs/decisions/090-journal-anchor.md):
 * the chain head's seq and hash, signed with the platform journal key and,
 * when TSA_URL is set, timestamped. Taken after every act and periodically;
 * append-only like the journal. `encoded` is the whole checkpoint as one
 * string (payload, signature, timestamp token) — what exports print and
 * `npm run journal:verify -- --checkpoint` reads back.
 */
export const journalCheckpoints = pgTable(
  'journal_checkpoints',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    headHash: text('head_hash').notNull(),
    entryCount: bigint('entry_count', { mode: 'number' }).notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    keyId: text('key_id').notNull(),
    encoded: text('encoded').notNull(),
    timestampAuthority: text('timestamp_authority'),
  },
  (t) => [index('journal_checkpoints_seq_idx').on(t.seq, t.id)],
);

/**
 * Keys the platform generated for itself (a local or TEST MODE run without
 * the variable): the private part sealed with DATA_ENCRYPTION_KEY (decision 023).
 */
export const platformKeys = pgTable('platform_keys', {
  name: text('name').primaryKey(),
  sealedPrivateKey: text('sealed_private_key').notNull(),
  publicKey: text('public_key').notNull(),
  createdAt: createdAt(),
});

/**
 * Manage-link tokens issued after the confirmation (the reminder's and the
 * no-show email's links): SHA-256 only, like `bookings.manage_token_hash`.
 */
export const bookingManageTokens = pgTable(
  'booking_manage_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('booking_manage_tokens_booking_idx').on(t.bookingId)],
);


/** The video session of a confirmed booking (docs/decisions/030-session-room.md). One per booking. */
export const notarySessions = pgTable('notary_sessions', {
  bookingId: uuid('booking_id')
    .primaryKey()
    .references(() => bookings.id, { onDelete: 'cascade' }),
  /** The notary pressed Start (joined the room). */
  startedAt: timestamp('started_at', { withTimezone: true }),
  customerJoinedAt: timestamp('customer_joined_at', { withTimezone: true }),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  outcome: text('outcome', { enum: sessionOutcomes }),
  outcomeReason: text('outcome_reason'),
  finishedBy: uuid('finished_by').references(() => staffUsers.id, { onDelete: 'set null' }),
  /** The signer's "I consent to sign electronically" (ESIGN, 15 U.S.C. 7001(c)): when, and from which address. */
  consentAt: timestamp('consent_at', { withTimezone: true }),
  consentAddress: text('consent_address'),
  /** "Where are you right now?": a US state's code, or a country's name when outside the US. */
  signerLocation: text('signer_location'),
  /** A signer outside the US: the notary confirmed RULONA's conditions for the act (decision 106), when and who. */
  abroadConfirmedAt: timestamp('abroad_confirmed_at', { withTimezone: true }),
  abroadConfirmedBy: uuid('abroad_confirmed_by').references(() => staffUsers.id, { onDelete: 'set null' }),
  /** The notary pressed "Administer oath"; the signer answered "I swear" or "I affirm". */
  oathRequestedAt: timestamp('oath_requested_at', { withTimezone: true }),
  oathAnsweredAt: timestamp('oath_answered_at', { withTimezone: true }),
  oathKind: text('oath_kind', { enum: ['swear', 'affirm'] }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Recordings of a session (docs/decisions/031-session-recording.md). The bytes
 * live in object storage under `recordings/`, never in the database.
 */
export const sessionRecordings = pgTable(
  'session_recordings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /** recording: chunks arriving; assembling: being joined; stored: in `storage_key`; deleted: removed by retention. */
    status: text('status', { enum: ['recording', 'assembling', 'stored', 'failed', 'deleted'] })
      .notNull()
      .default('recording'),
    mimeType: text('mime_type').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    chunkCount: integer('chunk_count').notNull().default(0),
    startedBy: uuid('started_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    storedAt: timestamp('stored_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * `assembling`: queued by Stop; a worker claims it by setting this lease
     * (renewed while it works). Null or past: free for any node to take over
     * (docs/decisions/072-recording-assembly-job.md).
     */
    assemblyLeaseUntil: timestamp('assembly_lease_until', { withTimezone: true }),
    /** Tries that ended in an error (a full disk): the job backs off, Finish says so. */
    assemblyAttempts: integer('assembly_attempts').notNull().default(0),
    /** SHA-256 (hex) of the stored file as written (after it was made seekable; decision 103). Also in the `session.recording_stored` audit entry. */
    sha256: text('sha256'),
    /** The stored file's length as its Duration says (null: not a WebM we could read). */
    durationMs: integer('duration_ms'),
    /** When the last chunk arrived: the server's stalled-recording warning (RECORDING_STALL_SECONDS). */
    lastChunkAt: timestamp('last_chunk_at', { withTimezone: true }),
    /** When the room was last told the recording had stalled (told once per stall). */
    stallNotifiedAt: timestamp('stall_notified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('session_recordings_booking_idx').on(t.bookingId), index('session_recordings_assembling_idx').on(t.status).where(sql`status = 'assembling'`)],
);

/** Chunks received but not yet assembled: one row per sequence number (a re-send is recognised). */
export const sessionRecordingChunks = pgTable(
  'session_recording_chunks',
  {
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => sessionRecordings.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('session_recording_chunks_seq_idx').on(t.recordingId, t.seq)],
);

/** The room's typed chat (kept with the booking: part of what happened in the session). */
export const sessionMessages = pgTable(
  'session_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    sender: text('sender', { enum: ['customer', 'notary', 'participant'] }).notNull(),
    /** Which co-signer or witness wrote it (sender 'participant'); null for the customer and the notary. */
    participantId: uuid('participant_id').references(() => sessionParticipants.id, { onDelete: 'cascade' }),
    /** Chosen by the sender; a resend after a reconnect is recognised, not duplicated. Unique per sender, not per room. */
    clientId: text('client_id').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('session_messages_sender_client_idx').on(t.bookingId, t.sender, t.clientId)],
);

/**
 * A notary's working hours (issue 28): a weekly pattern in their own zone
 * (staff_users.time_zone), dates off, and the on-duty switch. No row: no hours
 * set. While no notary has a row, business hours and BOOKING_SLOT_CAPACITY apply.
 */
export const notaryAvailability = pgTable('notary_availability', {
  staffId: uuid('staff_id')
    .primaryKey()
    .references(() => staffUsers.id, { onDelete: 'cascade' }),
  /** [{ day: 0–6 (Sunday first), start, end }] in minutes after local midnight. */
  weekly: jsonb('weekly').$type<{ day: number; start: number; end: number }[]>().notNull(),
  /** Local dates 'YYYY-MM-DD' off work. */
  datesOff: jsonb('dates_off').$type<string[]>().notNull().default([]),
  onDuty: boolean('on_duty').notNull().default(false),
  updatedAt: updatedAt(),
});

/**
 * The on-demand line (issue 28, decision 110): one row per paid on-demand
 * booking. Notaries take the next row with `FOR UPDATE SKIP LOCKED`, so each
 * customer goes to exactly one notary on any number of nodes.
 */
export const onDemandQueue = pgTable(
  'on_demand_queue',
  {
    bookingId: uuid('booking_id')
      .primaryKey()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /** waiting → accepted (→ waiting again when the notary drops) | away (tab closed past the grace) | timed_out | closed. */
    status: text('status', { enum: ['waiting', 'away', 'accepted', 'timed_out', 'closed'] }).notNull().default('waiting'),
    /** When the customer first joined: the wait limit counts from here. */
    firstJoinedAt: timestamp('first_joined_at', { withTimezone: true }).notNull(),
    /** Place in line: oldest first; a customer whose notary dropped gets a `front_at` and goes before everyone. */
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
    frontAt: timestamp('front_at', { withTimezone: true }),
    /** The lobby's last heartbeat: a customer away longer than the grace is passed over. */
    customerSeenAt: timestamp('customer_seen_at', { withTimezone: true }).notNull(),
    notaryId: uuid('notary_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    /** The accepting notary's last heartbeat (console or room) until the session starts. */
    notarySeenAt: timestamp('notary_seen_at', { withTimezone: true }),
    timedOutAt: timestamp('timed_out_at', { withTimezone: true }),
    /** What a timed-out customer chose: 'refund' or 'schedule'. */
    resolution: text('resolution', { enum: ['refund', 'schedule'] }),
    createdAt: createdAt(),
  },
  (t) => [
    index('on_demand_queue_waiting_idx').on(t.frontAt, t.joinedAt).where(sql`status = 'waiting'`),
    index('on_demand_queue_notary_idx').on(t.notaryId).where(sql`status = 'accepted'`),
  ],
);
