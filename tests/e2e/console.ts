import { inject } from 'vitest';
import { staffSessionCookie } from '../../src/server/features/staff/session.ts';
import type { Browser } from './browser.ts';

/** Accounts seeded into the shared server's database (tests/e2e/global-setup.ts). */
export const staffAccounts = () => inject('staffAccounts');

/** Signs this browser in to the console as the seeded account of `role` (session cookie, second factor done). */
export async function signInAs(browser: Browser, role: 'admin' | 'staff' | 'notary'): Promise<void> {
  const account = staffAccounts()[role];
  await browser.context.addCookies([{ name: staffSessionCookie, value: account.session, url: inject('baseUrl'), httpOnly: true, sameSite: 'Lax' }]);
}
