import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/server/config.ts';
import { openPglite } from '../../src/server/db/client.ts';
import { buildDeps } from '../../src/server/deps.ts';
import { createLogger } from '../../src/server/logger.ts';
import { copyMigratedDataDir } from '../helpers/db.ts';
import { startServer } from '../helpers/server.ts';
import { createStaffUser } from '../helpers/staff.ts';
import { seedVerifiableAct, type VerifiableAct } from './verifiable-act.ts';

/** A console account on the shared server: how a journey signs in as it (see tests/e2e/console.ts). */
export interface SeededStaff {
  email: string;
  password: string;
  totpSecret: string | null;
  /** A fully signed-in session cookie value (second factor done). */
  session: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    serverDataDir: string;
    staffAccounts: { admin: SeededStaff; staff: SeededStaff; notary: SeededStaff };
    /** A sealed act in the journal and its PDF, for the /verify journey. */
    verifiableAct: VerifiableAct;
  }
}

/**
 * One production server for the journeys (built by `npm run build` beforehand).
 * Its embedded database gets an admin, a staff member and a notary first, while
 * no server holds it (PGlite allows one process), so console journeys can
 * share this server instead of starting their own.
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'notary-e2e-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  await copyMigratedDataDir(path.join(dataDir, 'pglite'));
  const database = await openPglite(path.join(dataDir, 'pglite'));
  const deps = await buildDeps(config, database, createLogger('silent'));
  let notaryId = '';
  const seeded = async (role: 'admin' | 'staff' | 'notary', name: string): Promise<SeededStaff> => {
    const user = await createStaffUser(deps, { role, name });
    if (role === 'notary') notaryId = user.id;
    const cookie = await user.sessionCookie();
    return { email: user.email, password: user.password, totpSecret: user.totpSecret, session: cookie.slice(cookie.indexOf('=') + 1) };
  };
  const staffAccounts = { admin: await seeded('admin', 'Ada Admin'), staff: await seeded('staff', 'Sam Staff'), notary: await seeded('notary', 'Nia Notary') };
  const verifiableAct = await seedVerifiableAct(deps, notaryId, dataDir);
  await database.close();

  const server = await startServer({ DATA_DIR: dataDir });
  project.provide('baseUrl', server.url);
  project.provide('serverDataDir', server.dataDir);
  project.provide('staffAccounts', staffAccounts);
  project.provide('verifiableAct', verifiableAct);
  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
