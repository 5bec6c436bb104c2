import { sql } from 'drizzle-orm';
import { Router } from 'express';
import type { Deps } from '../deps.ts';

/** Shared with `main.ts`: set while the process drains, so the load balancer stops sending work. */
export interface Readiness {
  draining: boolean;
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
 * `/readyz`: it can do its work — the database answers `select 1` and the
 * document store answers a ping — and it is not shutting down (readiness;
 * take it out of the load balancer when this fails).
 */
export function healthRoutes(deps: Deps, readiness: Readiness): Router {
  const routes = Router();
  routes.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  routes.get('/readyz', async (req, res) => {
    const [database, storage] = await Promise.all([
      check(() => deps.db.execute(sql`select 1`)),
      check(() => deps.storage.ping()),
    ]);
    const ready = !readiness.draining && database === 'ok' && storage === 'ok';
    if (!ready) req.log?.warn({ database, storage, draining: readiness.draining }, 'not ready');
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ok' : 'unavailable',
      draining: readiness.draining,
      checks: { database, storage },
    });
  });
  return routes;
}
