import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const baseUrl = () => inject('baseUrl');

/**
 * What the browsers opened by the current test saw (navigations, console messages of every
 * kind, page errors, failed or refused requests), with the time since the test began:
 * tests/e2e/setup.ts prints it when an attempt fails, so a CI log says what the page did.
 */
export const browserEvents: string[] = [];
const eventsLimit = 400;
let eventsSince = Date.now();
export function resetBrowserEvents(): void {
  browserEvents.length = 0;
  eventsSince = Date.now();
}
function logEvent(page: number, text: string): void {
  if (browserEvents.length === eventsLimit) browserEvents.splice(0, 100, '… (earlier events dropped)');
  browserEvents.push(`+${Date.now() - eventsSince} ms page ${page}: ${text.slice(0, 300)}`);
}
let pagesOpened = 0;

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** console.error and page errors seen so far; journeys assert it stays empty. */
  errors: string[];
  close(): Promise<void>;
}

/** A fresh Chromium profile per call (Debian's chromium; no browser download). */
export async function openBrowser(
  options: { width?: number; height?: number; reducedMotion?: 'reduce' | 'no-preference'; javaScriptEnabled?: boolean; timezoneId?: string; baseURL?: string; args?: string[] } = {},
): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'notary-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.args ?? []),
    ],
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    reducedMotion: options.reducedMotion ?? 'no-preference',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    baseURL: options.baseURL ?? baseUrl(),
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  const watch = (p: Page) => {
    const id = ++pagesOpened;
    p.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
      logEvent(id, `console.${msg.type()} ${msg.text()}`);
    });
    p.on('pageerror', (error) => {
      errors.push(error.message);
      logEvent(id, `pageerror ${error.message}`);
    });
    p.on('framenavigated', (frame) => {
      if (frame === p.mainFrame()) logEvent(id, `navigated to ${frame.url()}`);
    });
    p.on('requestfailed', (request) => logEvent(id, `request failed ${request.url()} ${request.failure()?.errorText ?? ''}`));
    p.on('response', (response) => {
      if (response.status() >= 400) logEvent(id, `${response.status()} ${response.request().method()} ${response.url()}`);
    });
    p.on('load', () => logEvent(id, 'load'));
  };
  watch(page);
  context.on('page', watch);
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Holds back the response for the client entry script until the returned function is called,
 * as a slow phone would: what is done meanwhile is done to the server's HTML, before hydration.
 */
export async function holdEntryScript(page: Page): Promise<() => Promise<void>> {
  const entry = /\/assets\/index-[\w-]+\.js$/;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const continuing: Promise<void>[] = [];
  await page.route(entry, (route) => {
    const continued = released.then(() => route.continue());
    continuing.push(continued);
    return continued;
  });
  return async () => {
    release();
    // The held requests go on before the route goes: unrouting first would answer them, and
    // their own continue() would then fail as "already handled".
    await Promise.all(continuing);
    await page.unroute(entry);
  };
}

/** axe-core against WCAG 2.1 A/AA rules; returns the violations (expected: none). */
export async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * The same-origin scripts a page requests while it loads `pagePath` and hydrates: its first
 * load (what loads later on purpose — the chat on first use, a form near the viewport — is not).
 */
export async function firstLoadScripts(page: Page, pagePath: string): Promise<Set<string>> {
  const scripts = new Set<string>();
  const onRequest = (req: { url(): string; resourceType(): string }) => {
    const url = new URL(req.url());
    if (req.resourceType() === 'script' && url.origin === baseUrl()) scripts.add(url.pathname);
  };
  page.on('request', onRequest);
  try {
    await page.goto(pagePath);
    await page.locator('html[data-hydrated]').waitFor();
  } finally {
    page.off('request', onRequest);
  }
  return scripts;
}

/**
 * Whether the page scrolls sideways (issue 15 item 2): null, or its width and the
 * widest elements that stick out (not clipped by a scrolling parent, not fixed), to say what to fix.
 */
export async function sidewaysOverflow(page: Page): Promise<string | null> {
  const { scrollWidth, innerWidth, wide } = await page.evaluate(() => {
    const limit = window.innerWidth;
    const clipped = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true;
      }
      return false;
    };
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => el.getBoundingClientRect().right > limit + 1 && getComputedStyle(el).position !== 'fixed' && !clipped(el))
      .slice(-3)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ').slice(0, 4).join('.')} right=${Math.round(el.getBoundingClientRect().right)}`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: limit, wide };
  });
  return scrollWidth > innerWidth ? `${scrollWidth}px wide (${wide.join('; ')})` : null;
}
