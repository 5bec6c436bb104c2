import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { openPglite } from '../../src/server/db/client.ts';
import { buildDeps } from '../../src/server/deps.ts';
import { createLogger } from '../../src/server/logger.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { createStaffUser } from '../helpers/staff.ts';
import { axeViolations, openBrowser, type Browser } from './browser.ts';

/**
 * Two browsers: a visitor on the home page and a staff member in /admin/chat.
 * Its own server, so the staff account can be written into the embedded
 * database before the server opens it (PGlite allows one process at a time).
 */
describe('live chat: a visitor and a staff member', () => {
  let server: RunningServer;
  let dataDir: string;
  let visitor: Browser;
  let staff: Browser;
  /** The visitor's live WebSockets, so the test can cut them like a dropped network. */
  const visitorSockets: Array<{ page: WebSocketRoute; server: WebSocketRoute }> = [];
  const requests: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'notary-chat-e2e-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const database = await openPglite(path.join(dataDir, 'pglite'));
    const deps = await buildDeps(config, database, createLogger('silent'));
    const account = await createStaffUser(deps, { role: 'staff', name: 'Jordan Lee' });
    const sessionCookie = await account.sessionCookie();
    await database.close();

    server = await startServer({ DATA_DIR: dataDir });
    visitor = await openBrowser();
    staff = await openBrowser();
    const [name, value] = sessionCookie.split('=') as [string, string];
    await staff.context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: 'Lax' }]);
    await visitor.context.routeWebSocket(/\/socket\.io\//, (ws) => {
      visitorSockets.push({ page: ws, server: ws.connectToServer() });
    });
    visitor.page.on('request', (request) => requests.push(request.url()));
  });

  afterAll(async () => {
    await visitor?.close();
    await staff?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const log = (page: Page) => page.getByRole('log', { name: 'Messages' });
  const chatDialog = (page: Page) => page.getByRole('dialog', { name: 'Chat with NotaryOnline' });

  it('loads the widget only when opened, offers an offline message, and passes axe', async () => {
    const { page } = visitor;
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Chat with us' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(requests.filter((url) => url.includes('/socket.io/') || url.includes('chat-widget'))).toEqual([]);

    await page.getByRole('button', { name: 'Chat with us' }).click();
    const dialog = chatDialog(page);
    await dialog.waitFor();
    expect(requests.some((url) => url.includes('/socket.io/'))).toBe(true);
    // Nobody online yet: the visitor can leave a message and an email address.
    await dialog.getByText("We're offline. Leave a message and we'll email you.").waitFor();
    await expect.poll(() => dialog.getByLabel('Your email').isVisible()).toBe(true);
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
    expect(await axeViolations(page)).toEqual([]);

    // Escape closes it and focus returns to the launcher.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toContain('Chat with us');
  });

  it('carries messages both ways live, with typing, and loses nothing across a reconnect', async () => {
    const v = visitor.page;
    const s = staff.page;
    await v.getByRole('button', { name: 'Chat with us' }).click();
    const dialog = chatDialog(v);

    await s.goto(`${server.url}/admin/chat`);
    await s.getByRole('heading', { name: 'Chat', level: 1 }).waitFor();
    await dialog.getByText('We are online and usually reply within minutes.').waitFor();

    // Visitor → staff.
    const composer = dialog.getByRole('textbox', { name: 'Message' });
    await composer.fill('Hello! Can you notarize a power of attorney today?');
    await composer.press('Enter');
    await log(v).getByText('Hello! Can you notarize a power of attorney today?').waitFor();
    const entry = s.getByRole('button', { name: /Visitor .*1 unread/ });
    await entry.waitFor();
    await expect.poll(() => entry.textContent()).toContain('On /');
    await entry.click();
    await log(s).getByText('Hello! Can you notarize a power of attorney today?').waitFor();
    // Opening it marks it read.
    await expect.poll(() => s.getByRole('button', { name: /unread/ }).count()).toBe(0);

    // Typing, then staff → visitor.
    const reply = s.getByRole('textbox', { name: 'Reply' });
    await reply.pressSequentially('Yes');
    await dialog.getByText('A team member is typing…').waitFor();
    await reply.fill('Yes, we can. Do you have your ID ready?');
    await reply.press('Enter');
    await log(v).getByText('Yes, we can. Do you have your ID ready?').waitFor();
    await log(v).getByText('Jordan Lee', { exact: false }).first().waitFor();

    await composer.pressSequentially('I');
    await s.getByText('The visitor is typing…').waitFor();
    await composer.fill('');

    // The visitor's network drops: staff keep writing, the visitor writes too.
    await visitor.context.setOffline(true);
    for (const socket of visitorSockets.splice(0)) {
      await socket.page.close().catch(() => {});
      await socket.server.close().catch(() => {});
    }
    await dialog.getByText('Connection lost. Reconnecting…').waitFor();
    for (const text of ['First, your photo ID.', 'Second, the document itself.']) {
      await reply.fill(text);
      await reply.press('Enter');
      await log(s).getByText(text).waitFor();
    }
    await composer.fill('Got it, one moment.');
    await composer.press('Enter');
    await log(v).getByText('Sending…').waitFor();

    // Back online: replay and outbox — everything once, in order, on both screens.
    await visitor.context.setOffline(false);
    await log(v).getByText('Second, the document itself.').waitFor({ timeout: 30_000 });
    await log(s).getByText('Got it, one moment.').waitFor({ timeout: 30_000 });
    await expect.poll(() => log(v).getByText('Sending…').count()).toBe(0);

    const expected = [
      'Hello! Can you notarize a power of attorney today?',
      'Yes, we can. Do you have your ID ready?',
      'First, your photo ID.',
      'Second, the document itself.',
      'Got it, one moment.',
    ];
    const bodies = (page: Page) => log(page).locator('li > p:last-of-type').allTextContents();
    await expect.poll(() => bodies(v)).toEqual(expected);
    await expect.poll(() => bodies(s)).toEqual(expected);

    // A reload keeps the conversation (the HttpOnly cookie), history replayed from the start.
    await v.reload();
    await v.getByRole('button', { name: 'Chat with us' }).click();
    await expect.poll(() => bodies(v)).toEqual(expected);

    // Zero violations with the widget open mid-conversation, and on the console
    // (after the page's own reveal transitions have finished: axe measures contrast mid-fade).
    await v.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
    expect(await axeViolations(v)).toEqual([]);
    expect(await axeViolations(s)).toEqual([]);
    expect(visitor.errors.filter((e) => !e.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([]);
    expect(staff.errors).toEqual([]);
  });
});
