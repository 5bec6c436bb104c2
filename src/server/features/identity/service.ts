import { Readable } from 'node:stream';
import { DomainError } from '../../errors.ts';
import {
  identityMessages,
  maxIdentityAttempts,
  nameOnIdSchema,
  type CustomerIdentityView,
  type NotaryIdentityView,
  type ParticipantIdentityView,
} from '../../../shared/notarial-act.ts';
import type { IdentityOutcome } from '../../adapters/identity/types.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { writeAudit } from '../audit.ts';
import type { JournalActData } from '../journal/service.ts';
import { detectFileType } from '../documents/service.ts';
import { authorise, type AccessAction } from '../access/service.ts';
import { onIdentityAttemptsExhausted } from '../notifications/events.ts';
import { actChanged, takeTransition } from '../act/service.ts';
import { kbaMessages, type NotaryKbaView } from '../../../shared/kba.ts';
import { kbaForNotary, kbaJournalFacts } from './kba-service.ts';
import { deleteKbaAttempts } from './kba-repository.ts';
import {
  activeParticipantRows,
  bookingForIdentity,
  deleteStaleAttempts,
  deleteVerification,
  eraseVerification,
  findVerification,
  findVerificationBySession,
  insertVerification,
  latestVerified,
  listVerifications,
  recordOutcome,
  updateVerification,
  verificationsToErase,
  type VerificationRow,
} from './repository.ts';
import { claimProviderEvent } from '../payments/service.ts';

/**
 * Identity proofing before the session (docs/decisions/034-identity-provider.md).
 * The outcome always comes from the provider — Stripe's signed webhook read
 * back through its API, or the test provider's judgement on the server — never
 * from the browser. ID images and details are personal data: private storage,
 * shown only to the booking's notary and admins, never logged.
 */
export const maxImageBytes = 8 * 1024 * 1024;
const openStatuses = new Set(['confirmed']);
/**
 * How long an attempt may stay `processing` (the test provider answers within
 * the request). Past it the attempt is taken to have died with its process:
 * it is removed, its images deleted, and it is not counted (finding 4: a crash
 * or an exception never locks a customer out).
 */
export const processingLeaseMs = 2 * 60_000;

/** Removes the booking's attempts whose `processing` lease ran out, with their images. */
async function expireStaleAttempts(deps: Deps, bookingId: string): Promise<void> {
  const stale = await deleteStaleAttempts(deps.db, bookingId, new Date(deps.now().getTime() - processingLeaseMs));
  for (const row of stale) await discardAttempt(deps, row, 'identity.attempt_expired');
}

/** An attempt that never got an outcome: its images go, and the audit says so (no personal data). */
async function discardAttempt(deps: Deps, row: VerificationRow, action: string): Promise<void> {
  for (const key of row.imageKeys ?? []) await deps.storage.delete(key).catch((err: unknown) => deps.log.warn({ err, verificationId: row.id }, 'identity: could not delete an image'));
  await writeAudit(deps.db, { actorType: 'system', action, entityType: 'booking', entityId: row.bookingId, data: { attempt: row.attempt, verificationId: row.id } });
}

function counts(rows: VerificationRow[]) {
  const used = rows.length;
  return { used, left: Math.max(0, maxIdentityAttempts - used) };
}

function customerStatus(rows: VerificationRow[]): Pick<CustomerIdentityView, 'status' | 'message'> {
  if (rows.some((r) => r.status === 'verified')) return { status: 'verified', message: identityMessages.alreadyVerified };
  const latest = rows[0];
  if (latest?.status === 'pending') return { status: 'pending', message: null };
  if (latest?.status === 'processing') return { status: 'processing', message: identityMessages.inProgress };
  if (rows.length >= maxIdentityAttempts) return { status: 'locked', message: identityMessages.noAttemptsLeft };
  if (latest && (latest.status === 'failed' || latest.status === 'canceled')) {
    return { status: 'failed', message: `${identityMessages.failedPrefix} ${latest.failureMessage ?? 'the check was cancelled.'}` };
  }
  return { status: 'not_started', message: null };
}

/** Whose identity a link proves: the customer's (null) or the participant's own (decision 121). */
const personOf = (grant: { participant: { id: string } | null }) => grant.participant?.id ?? null;

export async function customerIdentity(deps: Deps, token: string): Promise<CustomerIdentityView> {
  const grant = await authorise(deps, { token }, 'view_identity');
  const bookingId = grant.bookingId;
  await expireStaleAttempts(deps, bookingId);
  const booking = await bookingForIdentity(deps.db, bookingId);
  const rows = await listVerifications(deps.db, bookingId, personOf(grant));
  const { used, left } = counts(rows);
  const open = !!booking && openStatuses.has(booking.status);
  const state = customerStatus(rows);
  return {
    mode: deps.identity.mode,
    open,
    ...state,
    message: open || state.status === 'verified' ? state.message : identityMessages.notOpen,
    attemptsUsed: used,
    attemptsLeft: left,
  };
}

/** A new attempt may begin: booking paid, not yet verified, attempts left, none under way. */
async function assertMayAttempt(db: DbOrTx, bookingId: string, participantId: string | null): Promise<VerificationRow[]> {
  const booking = await bookingForIdentity(db, bookingId);
  if (!booking || !openStatuses.has(booking.status)) throw new DomainError('PRECONDITION_FAILED', identityMessages.notOpen);
  const rows = await listVerifications(db, bookingId, participantId);
  const state = customerStatus(rows);
  if (state.status === 'verified') throw new DomainError('CONFLICT', identityMessages.alreadyVerified);
  if (state.status === 'locked') throw new DomainError('PRECONDITION_FAILED', identityMessages.noAttemptsLeft);
  if (state.status === 'processing') throw new DomainError('CONFLICT', identityMessages.inProgress);
  return rows;
}

/** Stripe Identity: a VerificationSession (or the one still awaiting input) and its hosted page. */
export async function startStripeVerification(deps: Deps, token: string): Promise<{ url: string }> {
  const provider = deps.identity;
  if (provider.mode !== 'stripe') throw new DomainError('BAD_REQUEST', 'Stripe Identity is not configured.');
  const grant = await authorise(deps, { token }, 'verify_identity');
  const bookingId = grant.bookingId;
  const participantId = personOf(grant);
  await expireStaleAttempts(deps, bookingId);
  const rows = await assertMayAttempt(deps.db, bookingId, participantId);
  const latest = rows[0];
  if (latest?.status === 'pending' && latest.provider === 'stripe') {
    const url = await provider.sessionUrl(latest.providerSessionId);
    if (url) return { url };
  }
  const attempt = rows.length + 1;
  // The return page is the home page: the session's URL must not carry the manage token to Stripe.
  const started = await provider.createSession({
    bookingId,
    attempt,
    returnUrl: `${deps.config.publicUrl}/`,
    idempotencyKey: `identity-${participantId ?? bookingId}-${attempt}`,
  });
  // No page to send the customer to: no attempt is recorded (nor spent), and they are told to try again.
  if (!started.url) {
    deps.log.warn({ bookingId, attempt }, 'identity provider returned no verification URL');
    throw new DomainError('SERVICE_UNAVAILABLE', identityMessages.providerUnavailable);
  }
  await insertVerification(deps.db, { bookingId, participantId, provider: 'stripe', providerSessionId: started.sessionId, attempt, status: 'pending' });
  return { url: started.url };
}

export interface TestSubmission {
  nameOnId: string;
  images: { part: 'front' | 'back' | 'selfie'; bytes: Buffer }[];
}

/**
 * TEST MODE, before the body is read: the link admits identity proofing, the
 * test provider is in use, and an attempt may begin. The route asks this from
 * the request's headers alone (docs/decisions/067).
 */
export async function admitTestSubmission(deps: Deps, token: string): Promise<{ bookingId: string; participantId: string | null; rows: VerificationRow[] }> {
  if (deps.identity.mode !== 'test') throw new DomainError('BAD_REQUEST', 'The test identity provider is not in use.');
  const grant = await authorise(deps, { token }, 'verify_identity');
  const participantId = personOf(grant);
  await expireStaleAttempts(deps, grant.bookingId);
  return { bookingId: grant.bookingId, participantId, rows: await assertMayAttempt(deps.db, grant.bookingId, participantId) };
}

/** TEST MODE: the images are checked by their bytes and stored privately; the provider judges. */
export async function submitTestVerification(deps: Deps, token: string, submission: TestSubmission): Promise<CustomerIdentityView> {
  const provider = deps.identity;
  if (provider.mode !== 'test') throw new DomainError('BAD_REQUEST', 'The test identity provider is not in use.');
  // The booking's rules for a name: a NUL or a bidi override is refused here, never stored, never a 500.
  const parsedName = nameOnIdSchema.safeParse(submission.nameOnId);
  if (!parsedName.success) throw new DomainError('BAD_REQUEST', parsedName.error.issues[0]?.message ?? identityMessages.nameRequired);
  const name = parsedName.data;
  const parts = ['front', 'back', 'selfie'] as const;
  const images = parts.map((part) => submission.images.find((i) => i.part === part));
  if (images.some((i) => !i || i.bytes.length === 0)) throw new DomainError('BAD_REQUEST', identityMessages.missingImage);
  const typed = images.map((i) => ({ ...i!, type: detectFileType(i!.bytes.subarray(0, 8)) }));
  if (typed.some((i) => !i.type || i.type.contentType === 'application/pdf' || i.bytes.length > maxImageBytes)) {
    throw new DomainError('BAD_REQUEST', identityMessages.badImage);
  }

  const { bookingId, participantId, rows } = await admitTestSubmission(deps, token);
  const attempt = rows.length + 1;
  const row = await insertVerification(deps.db, { bookingId, participantId, provider: 'test', providerSessionId: provider.newSessionId(), attempt, status: 'processing' });
  // Two submissions racing for the same attempt: the second is told to wait.
  if (!row) throw new DomainError('CONFLICT', identityMessages.inProgress);
  const keys: string[] = [];
  try {
    for (const image of typed) {
      const key = `${bookingId}/identity-${row.id}-${image.part}.${image.type!.ext}`;
      keys.push(key);
      await deps.storage.put(key, Readable.from(image.bytes), { contentType: image.type!.contentType });
    }
    const outcome = provider.evaluate({ bookingId, nameOnId: name, images: typed.map((i) => i.bytes), now: deps.now() });
    await deps.db.transaction(async (tx) => {
      await updateVerification(tx, row.id, { imageKeys: keys });
      await applyOutcome(tx, deps, { ...row, imageKeys: keys }, outcome);
    });
  } catch (error) {
    // Never left `processing`: the attempt is undone (not counted) and its images deleted; a crash here is the lease's job.
    await deleteVerification(deps.db, row.id);
    await discardAttempt(deps, { ...row, imageKeys: keys }, 'identity.attempt_failed');
    throw error;
  }
  // After the commit: the room refetches and must see the new state.
  actChanged(deps, bookingId);
  return customerIdentity(deps, token);
}

/** The one path that records a provider's outcome on an attempt. */
async function applyOutcome(tx: Tx, deps: Deps, row: VerificationRow, outcome: IdentityOutcome): Promise<void> {
  // A verified attempt stays verified whatever a late event says.
  if (row.status === 'verified') return;
  await recordOutcome(tx, row.id, {
    status: outcome.status,
    failureMessage: outcome.failureMessage,
    nameOnId: outcome.nameOnId,
    documentType: outcome.documentType,
    issuingState: outcome.issuingState,
    expiresOn: outcome.expiresOn,
    selfieMatch: outcome.selfieMatch,
    documentNumberLast4: outcome.documentNumberLast4,
  });
  if (outcome.status === row.status) return;
  // No personal data in the audit trail or the logs: the attempt and the result only.
  await writeAudit(tx, {
    actorType: 'provider',
    actorId: row.provider,
    action: `identity.${outcome.status}`,
    entityType: 'booking',
    entityId: row.bookingId,
    data: { attempt: row.attempt, verificationId: row.id },
  });
  if ((outcome.status === 'failed' || outcome.status === 'canceled') && row.attempt >= maxIdentityAttempts) {
    deps.log.warn({ bookingId: row.bookingId, attempts: row.attempt }, 'identity verification attempts exhausted; staff notified');
    await onIdentityAttemptsExhausted(tx, deps, { bookingId: row.bookingId });
  }
}

/**
 * `identity.verification_session.*` from Stripe's signed webhook. The event
 * only says which session changed: the outcome is read back with the API
 * (before the transaction; a failure there is a 500 and Stripe retries), and
 * the event id is recorded with the change so a redelivery does nothing.
 */
export async function handleIdentityEvent(
  deps: Deps,
  event: { id: string; type: string; verificationSessionId: string },
): Promise<'processed' | 'duplicate' | 'ignored'> {
  const provider = deps.identity;
  if (provider.mode !== 'stripe') return 'ignored';
  const sessionId = event.verificationSessionId;
  const outcome = await provider.retrieve(sessionId);
  const result = await deps.db.transaction(async (tx): Promise<'processed' | 'duplicate' | 'ignored'> => {
    if (!(await claimProviderEvent(tx, { id: event.id, provider: 'stripe', type: event.type }))) return 'duplicate';
    const row = await findVerificationBySession(tx, sessionId);
    if (!row) {
      deps.log.warn({ eventId: event.id }, 'identity event for an unknown verification session');
      return 'ignored';
    }
    await applyOutcome(tx, deps, row, outcome);
    return 'processed';
  });
  if (result === 'processed' && outcome.bookingId) actChanged(deps, outcome.bookingId);
  return result;
}

// ---- The notary's side ------------------------------------------------------------

/** The booking, if the access policy lets `staff` do `action` on it (features/access). */
export async function requireActAccess(deps: Deps, staff: StaffIdentity, bookingId: string, action: AccessAction) {
  await authorise(deps, { staff }, action, { bookingId }, { refusal: 'Only the notary assigned to this appointment (or an admin) may see this.' });
  const booking = await bookingForIdentity(deps.db, bookingId);
  if (!booking) throw new DomainError('NOT_FOUND', 'Booking not found.');
  return booking;
}

const normaliseName = (name: string) => name.toLowerCase().normalize('NFKD').replace(/[^a-z]/g, '');

export async function notaryIdentity(deps: Deps, staff: StaffIdentity, bookingId: string): Promise<NotaryIdentityView> {
  const booking = await requireActAccess(deps, staff, bookingId, 'review_identity');
  const rows = await listVerifications(deps.db, bookingId);
  const bookingName = [booking.firstName, booking.lastName].filter(Boolean).join(' ');
  await writeAudit(deps.db, { actorType: 'staff', actorId: staff.user.id, action: 'identity.viewed', entityType: 'booking', entityId: bookingId });
  // Each co-signer and witness still taking part: their own proofing, confirmed by the notary as the customer's is (decision 123).
  const people = await activeParticipantRows(deps.db, bookingId);
  const participants = await Promise.all(
    people.map(async (p): Promise<ParticipantIdentityView> => {
      const status = await identityProofingStatus(deps, bookingId, deps.db, p.id);
      return { participantId: p.id, name: p.name, role: p.role, latest: latestView(await listVerifications(deps.db, bookingId, p.id), p.name), kba: status.kba, blocker: status.blocker };
    }),
  );
  return {
    bookingName,
    mode: deps.identity.mode,
    attemptsUsed: rows.length,
    latest: latestView(rows, bookingName),
    kba: await kbaForNotary(deps, deps.db, bookingId),
    startBlocker: await sessionStartBlocker(deps, deps.db, bookingId),
    participants,
  };
}

/** One person's latest attempt (the verified one if any) as the notary reviews it, their name on the ID against `expectedName`. */
function latestView(rows: VerificationRow[], expectedName: string): NotaryIdentityView['latest'] {
  const latest = rows.find((r) => r.status === 'verified') ?? rows[0] ?? null;
  return latest && {
      id: latest.id,
      provider: latest.provider,
      providerSessionId: latest.providerSessionId,
      status: latest.status,
      failureMessage: latest.failureMessage,
      nameOnId: latest.nameOnId,
      nameMatchesBooking: !!latest.nameOnId && normaliseName(latest.nameOnId) === normaliseName(expectedName),
      documentType: latest.documentType,
      issuingState: latest.issuingState,
      expiresOn: latest.expiresOn,
      selfieMatch: latest.selfieMatch,
      documentNumberLast4: latest.documentNumberLast4,
      imageParts: latest.erasedAt ? [] : (latest.imageKeys ?? []).map((key) => key.match(/-(front|back|selfie)\.\w+$/)?.[1] ?? '').filter(Boolean),
      confirmedAt: latest.confirmedAt,
    };
}

/** The notary on camera confirms the verified ID is the person in front of them. */
export async function confirmIdentity(deps: Deps, staff: StaffIdentity, input: { bookingId: string; verificationId: string }): Promise<NotaryIdentityView> {
  await requireActAccess(deps, staff, input.bookingId, 'verify_identity');
  // The customer's verification, or a co-signer's or witness's (their latest verified attempt).
  const named = await findVerification(deps.db, input.verificationId);
  const verified = named && named.bookingId === input.bookingId ? await latestVerified(deps.db, input.bookingId, named.participantId) : undefined;
  if (!verified || verified.id !== input.verificationId) {
    throw new DomainError('PRECONDITION_FAILED', identityMessages.notVerified);
  }
  // A transition of the act (decision 073): only while the recording runs, so the comparison is on it.
  const changed = await deps.db.transaction((tx) =>
    takeTransition(deps, tx, { bookingId: input.bookingId, transition: 'confirmIdentity', actor: { type: 'staff', id: staff.user.id }, data: { verificationId: verified.id } }, async () => {
      if (verified.confirmedAt) return { changed: false, result: false };
      await updateVerification(tx, verified.id, { confirmedAt: deps.now(), confirmedBy: staff.user.id });
      await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: 'identity.confirmed', entityType: 'booking', entityId: input.bookingId, data: { verificationId: verified.id, participantId: verified.participantId } });
      return { changed: true, result: true };
    }),
  );
  if (changed) actChanged(deps, input.bookingId);
  return notaryIdentity(deps, staff, input.bookingId);
}

/**
 * What identity still lacks, or null: verified by the provider (needed to
 * start recording) AND confirmed by the notary against the person on camera
 * (during the recording; needed before signing and sealing). Shown in the
 * room's Identity tab; the act's state machine enforces it (decision 073).
 */
export async function sessionStartBlocker(deps: Pick<Deps, 'now' | 'config'>, db: DbOrTx, bookingId: string): Promise<string | null> {
  return (await identityProofingStatus(deps, bookingId, db)).blocker;
}

export interface IdentityProofingStatus {
  /** Credential analysis of the ID with a live selfie compared to its photo (provider verified). */
  credentialAnalysis: { done: boolean; selfieMatch: boolean | null };
  /** Knowledge-based authentication passed, fresh for this session. */
  kba: NotaryKbaView;
  /** The notary compared the verified ID with the person on camera. */
  notaryConfirmation: { done: boolean; at: Date | null };
  /** All three done: the act may be signed and sealed. */
  complete: boolean;
  /** The first thing missing, as the notary reads it; null when complete. */
  blocker: string | null;
}

/**
 * Where a booking's identity proofing stands (docs/decisions/085): credential
 * analysis and KBA (the two of three methods the platform uses) and the
 * notary's own visual confirmation. The session's start and the seal ask it;
 * the act's state machine can too.
 */
export async function identityProofingStatus(
  deps: Pick<Deps, 'now' | 'config'> & { db?: DbOrTx },
  bookingId: string,
  db: DbOrTx = deps.db!,
  /** A co-signer or witness; null (the default) for the booking's customer. */
  participantId: string | null = null,
): Promise<IdentityProofingStatus> {
  const verified = await latestVerified(db, bookingId, participantId);
  const kba = await kbaForNotary(deps, db, bookingId, participantId);
  const credentialAnalysis = { done: !!verified, selfieMatch: verified?.selfieMatch ?? null };
  const notaryConfirmation = { done: !!verified?.confirmedAt, at: verified?.confirmedAt ?? null };
  const blocker = !credentialAnalysis.done
    ? identityMessages.notVerified
    : kba.status !== 'passed'
      ? kbaMessages.notaryPending
      : !notaryConfirmation.done
        ? identityMessages.notConfirmed
        : null;
  return { credentialAnalysis, kba, notaryConfirmation, complete: blocker === null, blocker };
}

/** One ID image for the booking's notary or an admin (audited). */
export async function openIdentityImage(deps: Deps, staff: StaffIdentity, verificationId: string, part: string) {
  const row = await findVerification(deps.db, verificationId);
  if (!row) throw new DomainError('NOT_FOUND', 'Not found.');
  await requireActAccess(deps, staff, row.bookingId, 'review_identity');
  const key = row.erasedAt ? undefined : (row.imageKeys ?? []).find((k) => k.includes(`-${part}.`));
  if (!key) throw new DomainError('NOT_FOUND', 'Not found.');
  const object = await deps.storage.get(key);
  await writeAudit(deps.db, { actorType: 'staff', actorId: staff.user.id, action: 'identity.image_viewed', entityType: 'booking', entityId: row.bookingId, data: { verificationId, part } });
  return { ...object, contentType: key.endsWith('.png') ? 'image/png' : 'image/jpeg' };
}

/**
 * Retention, as for documents: DOCUMENT_RETENTION_DAYS after the booking
 * finished, the ID photos are deleted and the personal details cleared (the
 * outcome and the provider's id stay; the journal keeps what the law asks);
 * the identity questions' rows, with the sealed date of birth and address, go too.
 */
export async function purgeExpiredIdentity(deps: Deps): Promise<{ erased: number; failed: number }> {
  const cutoff = new Date(deps.now().getTime() - deps.config.DOCUMENT_RETENTION_DAYS * 86_400_000);
  const result = { erased: 0, failed: 0 };
  const rows = await verificationsToErase(deps.db, cutoff);
  for (const row of rows) {
    try {
      // Bytes first: a lost update means the next run deletes again (a no-op).
      for (const key of row.image_keys ?? []) await deps.storage.delete(key);
    } catch (error) {
      deps.log.error({ err: error, verificationId: row.id }, 'retention: could not delete identity images');
      result.failed++;
      continue;
    }
    await eraseVerification(deps.db, row.id, deps.now());
    await deleteKbaAttempts(deps.db, row.booking_id);
    await writeAudit(deps.db, { actorType: 'system', action: 'identity.erased', entityType: 'booking', entityId: row.booking_id, data: { verificationId: row.id } });
    result.erased++;
  }
  if (result.erased + result.failed > 0) deps.log.info(result, 'retention: identity images');
  return result;
}

/** The booking's latest verified identity (the notarial act's certificate and journal read it). */
export { latestVerified } from './repository.ts';

/**
 * What the journal entry of an act records of identity proofing: the methods
 * and their results, the signer's address (opened from its sealed form), the
 * ID's type, issuer, last 4 and expiry. Never SSN digits, never answers.
 */
export async function journalIdentity(
  deps: Deps,
  bookingId: string,
  participantId: string | null = null,
  db: DbOrTx = deps.db,
): Promise<{ address: string | null; identity: JournalActData['identity'] }> {
  const verified = await latestVerified(db, bookingId, participantId);
  if (!verified) throw new DomainError('PRECONDITION_FAILED', identityMessages.notVerified);
  const { address, kba } = await kbaJournalFacts(deps, bookingId, participantId, db);
  const methods: NonNullable<JournalActData['identity']['methods']> = [
    { method: 'credential_analysis', result: verified.selfieMatch ? 'verified, selfie matched' : 'verified', provider: verified.provider, reference: verified.providerSessionId },
  ];
  if (kba) methods.push({ method: 'knowledge_based_authentication', result: `passed (${kba.correct ?? '?'} of ${kba.total})`, provider: kba.provider, reference: kba.reference, attempt: kba.attempt, at: kba.passedAt });
  if (verified.confirmedAt) methods.push({ method: 'notary_visual_confirmation', result: 'confirmed', at: verified.confirmedAt.toISOString() });
  return {
    address,
    identity: {
      provider: verified.provider,
      verificationId: verified.providerSessionId,
      idType: verified.documentType,
      issuingState: verified.issuingState,
      expiresOn: verified.expiresOn,
      idNumberLast4: verified.documentNumberLast4,
      selfieMatch: verified.selfieMatch,
      methods,
    },
  };
}
