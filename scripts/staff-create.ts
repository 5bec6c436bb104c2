/**
 * Creates a staff account from the command line (there is no default account):
 *   npm run staff:create -- --email a@b.c --role admin [--name "Ada Admin"] [--time-zone America/Chicago]
 * The password comes from STAFF_PASSWORD or is typed at a hidden prompt.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { createLogger } from '../src/server/logger.ts';
import { buildDeps } from '../src/server/deps.ts';
import { createStaffAccount } from '../src/server/features/staff/service.ts';
import { passwordProblem } from '../src/server/features/staff/password.ts';
import { staffRoles, type StaffRole } from '../src/shared/staff.ts';
import { isValidTimeZone } from '../src/shared/time.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Reads a line without echoing it (raw TTY mode). */
async function promptHidden(question: string): Promise<string> {
  const { stdin, stdout } = process;
  if (!stdin.isTTY) fail('No terminal to type a password into: set STAFF_PASSWORD instead.');
  stdout.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve) => {
    let value = '';
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          stdout.write('\n');
          resolve(value);
          return;
        }
        if (char === '\u0003') {
          stdout.write('\n');
          process.exit(130);
        }
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on('data', onData);
  });
}

async function main() {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' }, 'time-zone': { type: 'string' } },
  });
  const usage = 'Usage: npm run staff:create -- --email you@example.com --role admin|staff|notary [--name "Your Name"] [--time-zone America/Chicago]';
  if (!values.email || !values.role) fail(usage);
  if (!(staffRoles as readonly string[]).includes(values.role)) fail(`--role must be one of: ${staffRoles.join(', ')}\n${usage}`);
  const timeZone = values['time-zone'] ?? 'America/Chicago';
  if (!isValidTimeZone(timeZone)) fail(`Unknown time zone: ${timeZone}`);

  let password = process.env.STAFF_PASSWORD;
  if (!password) {
    password = await promptHidden('Password (at least 12 characters): ');
    const again = await promptHidden('Repeat the password: ');
    if (again !== password) fail('The passwords do not match.');
  }
  const problem = passwordProblem(password);
  if (problem) fail(problem);

  const config = loadConfig();
  const log = createLogger('warn');
  // The embedded database takes one process at a time: say so plainly instead of a stack trace.
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }).catch((error: unknown) =>
    fail(error instanceof Error ? error.message : String(error)),
  );
  try {
    const deps = await buildDeps(config, database, log);
    const role = values.role as StaffRole;
    const { id } = await createStaffAccount(deps, { email: values.email, role, name: values.name, password, timeZone });
    console.log(`Created ${role} account ${values.email.toLowerCase()} (${id}).`);
    console.log(`Sign in at ${config.publicUrl}/admin/login`);
    if (role === 'admin') {
      console.log(
        'Admins must use two-factor authentication: after the first sign-in the console shows a key (and an otpauth:// link).\n' +
          'Add it to an authenticator app (1Password, Google Authenticator, Authy…) and enter the 6-digit code to finish.',
      );
    }
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  } finally {
    await database.close();
  }
}

await main();
