import { withConnection } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { enqueueReminder, mailHost } from './events.ts';
import { fillSecrets } from './secrets.ts';
import { claimNextDue, findBookingsDueForReminder, markAttemptFailed, markReminderQueued, markSent, sentPayload, type OutboxRow } from './repository.ts';

/**
 * Delivers the outbox. Any number of workers (one per server process) may run
 * at once: each claims one due row at a time under a lease (`FOR UPDATE SKIP
 * LOCKED`), sends it, and marks it sent straight away. Delivery is
 * at-least-once — a crash between "sent" and "marked" sends again after the
 * lease — and the row's stable Message-ID lets mail systems drop that copy.
 */
export interface OutboxWorkerOptions {
  /** Idle wait between polls. */
  pollMs?: number;
  /** A claimed row returns to the pool after this long (a crashed worker). Must exceed the SMTP timeouts. */
  leaseMs?: number;
  /** Failures (of any kind) before a message the server keeps refusing is marked failed. */
  maxAttempts?: number;
  /** A message that could not be delivered for this long is marked failed even during an outage. */
  maxAgeMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How often to look for appointments needing a reminder (0: never). */
  reminderEveryMs?: number;
  /** Reminder lead time. */
  reminderLeadMs?: number;
  random?: () => number;
}

const defaults: Required<OutboxWorkerOptions> = {
  pollMs: 2_000,
  leaseMs: 5 * 60_000,
  maxAttempts: 8,
  maxAgeMs: 3 * 24 * 3600_000,
  backoffBaseMs: 30_000,
  backoffMaxMs: 60 * 60_000,
  reminderEveryMs: 60_000,
  reminderLeadMs: 24 * 3600_000,
  random: Math.random,
};

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Exponential backoff with jitter (half fixed, half random), so messages that
 * failed together during an outage do not all come back in the same second.
 */
export function backoffDelay(attempt: number, options: Pick<Required<OutboxWorkerOptions>, 'backoffBaseMs' | 'backoffMaxMs' | 'random'>): number {
  const ceiling = Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * options.random());
}

/**
 * A 5xx SMTP reply is the server refusing this message (bad address, policy):
 * retrying helps only so often. No reply at all, or a 4xx, is an outage or a
 * temporary condition: that message waits for the server, up to `maxAgeMs`.
 */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** Sends everything due now; returns when nothing is left to claim. */
export async function deliverDue(deps: Deps, options: OutboxWorkerOptions = {}, shouldStop: () => boolean = () => false): Promise<DeliveryReport> {
  const o = { ...defaults, ...options };
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0 };
  while (!shouldStop()) {
    const row = await claimNextDue(deps.db, deps.now(), o.leaseMs);
    if (!row) break;
    await deliverOne(deps, o, row, report);
  }
  return report;
}

async function deliverOne(deps: Deps, o: Required<OutboxWorkerOptions>, row: OutboxRow, report: DeliveryReport): Promise<void> {
  const messageId = `${row.id}@${mailHost(deps)}`;
  // At-least-once (docs/decisions/015): a crash after the server accepted the
  // message and before "sent" is committed sends it again. That window is kept
  // as small as SMTP allows — it has no two-phase commit — by preparing the
  // mark (the redacted copy) and taking its database connection before the
  // message goes out: after the final 250 only one UPDATE round trip remains.
  const payload = sentPayload(row);
  const sent = await withConnection(deps.database, async (db) => {
    try {
      // Private links are put in only now, from their sealed form (./secrets.ts).
      const message = fillSecrets(deps.secrets, row.payload.message, row.payload.sealedSecrets);
      await deps.mail.send({ ...message, messageId });
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
    await markSent(db, row, deps.now(), payload);
    return true;
  });
  if (sent === true) {
    report.sent++;
    return;
  }
  const error = sent;
  const now = deps.now();
  const permanent = isPermanent(error);
  const final = (permanent && row.attempts >= o.maxAttempts) || now.getTime() - row.createdAt.getTime() >= o.maxAgeMs;
  const nextAttemptAt = new Date(now.getTime() + backoffDelay(row.attempts, o));
  const message = error.message;
  await markAttemptFailed(deps.db, row, { error: message, nextAttemptAt, final });
  if (final) {
    report.failed++;
    deps.log.error({ outboxId: row.id, kind: row.kind, attempts: row.attempts, err: message }, 'email could not be delivered; marked failed');
  } else {
    report.retrying++;
    deps.log.warn({ outboxId: row.id, kind: row.kind, attempts: row.attempts, retryAt: nextAttemptAt, err: message }, 'email delivery failed; will retry');
  }
}

/** Queues reminders for appointments entering the lead window; safe on several nodes at once. */
export async function queueDueReminders(deps: Deps, options: OutboxWorkerOptions = {}): Promise<number> {
  const o = { ...defaults, ...options };
  const now = deps.now();
  let queued = 0;
  for (const bookingId of await findBookingsDueForReminder(deps.db, now, o.reminderLeadMs)) {
    await deps.db.transaction(async (tx) => {
      if (await enqueueReminder(tx, deps, bookingId)) queued++;
      await markReminderQueued(tx, bookingId, now);
    });
  }
  return queued;
}

export interface OutboxWorker {
  /** Stops polling and waits for the message being sent, if any. */
  stop(): Promise<void>;
  /** Runs a pass now instead of at the next poll (e.g. right after a form submission). */
  wake(): void;
}

export function startOutboxWorker(deps: Deps, options: OutboxWorkerOptions = {}): OutboxWorker {
  const o = { ...defaults, ...options };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let lastReminderCheck = 0;

  // Consecutive failed passes: while the database is away the worker backs off
  // (poll interval doubling to 30 s) instead of failing every 2 s, and says so once.
  let failures = 0;
  const pass = async () => {
    try {
      if (o.reminderEveryMs > 0 && Date.now() - lastReminderCheck >= o.reminderEveryMs) {
        lastReminderCheck = Date.now();
        await queueDueReminders(deps, o);
      }
      await deliverDue(deps, o, () => stopped);
      if (failures > 0) deps.log.info({ failures }, 'outbox worker reaches the database again');
      failures = 0;
    } catch (error) {
      failures++;
      if (failures === 1) deps.log.error({ err: error }, 'outbox pass failed; retrying with backoff');
      else deps.log.warn({ err: error, failures }, 'outbox pass failed again');
    }
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = pass().finally(() => {
        running = undefined;
        schedule(failures === 0 ? o.pollMs : Math.min(30_000, o.pollMs * 2 ** Math.min(failures, 10)));
      });
    }, delay);
  };
  schedule(0);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    wake() {
      if (!running) schedule(0);
    },
  };
}
