import { sql } from 'drizzle-orm';
import { Router } from 'express';
import type { Deps } from '../deps.ts';

/** Shared with `serve.ts`: set while the process drains, so the load balancer stops sending work. */
export interface Readiness {
  draining: boolean;
  /**
   * Parts that repair themselves (reconnect with backoff). /healthz fails only
   * when one stays down although the database answers: then the fault is
   * inside this process and a restart helps. A part told the database answers
   * reconnects at once, and counts its stuck time from then
   * (docs/decisions/076-liveness-after-an-outage.md).
   */
  watchdogs: Watchdog[];
  /** A self-repairing part down this long while the database answers is stuck (LIVENESS_STUCK_SECONDS). */
  stuckAfterMs: number;
}

export interface Watchdog {
  name: string;
  /** Milliseconds down (0 while up). */
  downForMs(): number;
  /** Milliseconds down while the database answered. */
  stuckForMs(): number;
  /** What the probe saw of the database. */
  databaseAnswered(answered: boolean): void;
}

type CheckResult = 'ok' | 'error' | 'timeout';

const checkTimeoutMs = 2_000;

async function check(run: () => Promise<unknown>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), checkTimeoutMs);
  });
  try {
    return await Promise.race([run().then(() => 'ok' as const), timeout]);
  } catch {
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/healthz`: the process answers (liveness; restart it when this fails).
 * `/readyz`: it can do its work — the database answers `select 1`, the
 * document store (and the local mailbox) can be written — and it is not shutting down (readiness;
 * take it out of the load balancer when this fails).
 */
export function healthRoutes(deps: Deps, readiness: Readiness): Router {
  const routes = Router();
  routes.get('/healthz', async (req, res) => {
    const down = readiness.watchdogs.filter((w) => w.downForMs() > 0);
    if (down.length > 0) {
      // A database outage is not ours to fix: restarting every node would only
      // drop their chats. Only when the database answers is a stuck part our
      // fault — and the answer first tells the part to reconnect now, so one that
      // was only waiting out its backoff is never reported.
      const database = await check(() => deps.db.execute(sql`select 1`));
      for (const watchdog of down) watchdog.databaseAnswered(database === 'ok');
      const stuck = database === 'ok' ? down.filter((w) => w.stuckForMs() > readiness.stuckAfterMs).map((w) => w.name) : [];
      if (stuck.length > 0) {
        req.log?.error({ stuck }, 'liveness: stuck although the database answers; restart this process');
        res.status(503).json({ status: 'stuck', stuck });
        return;
      }
    }
    res.json({ status: 'ok' });
  });
  routes.get('/readyz', async (req, res) => {
    const ping = deps.mail.ping?.bind(deps.mail);
    const [database, storage, mail] = await Promise.all([
      check(() => deps.db.execute(sql`select 1`)),
      // Local folder: a probe file is written and removed, so a full or read-only disk shows here.
      check(() => deps.storage.ping()),
      ping ? check(ping) : Promise.resolve(null),
    ]);
    const checks = { database, storage, ...(mail ? { mail } : {}) };
    const ready = !readiness.draining && Object.values(checks).every((result) => result === 'ok');
    if (!ready) req.log?.warn({ checks, draining: readiness.draining }, 'not ready');
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ok' : 'unavailable',
      draining: readiness.draining,
      checks,
    });
  });
  return routes;
}
