import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import { adoptGroup, firstLine, spawnTracked, stopTracked } from './processes.ts';
import lighthouse from 'lighthouse';
import { buildPageFloor, textBlocksOf, type PageFloorSpec } from './floor-page.ts';

export interface LighthouseRow {
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Script bytes over the wire (compressed), as Lighthouse's network log saw them. */
  scriptTransferBytes: number;
  /** Failed audits worth reading, per category with a score below 1. */
  failing: string[];
  /** What Lighthouse names as the LCP element (its selector). */
  lcpElement: string;
}

/** One page over the runs: the app's rows and, run for run, the floor page's. */
export interface LighthousePage {
  path: string;
  app: LighthouseRow[];
  floor: LighthouseRow[];
}

const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

/**
 * Lighthouse's default run: mobile form factor, simulated throttling (slow 4G,
 * 4x CPU slowdown), a cold cache per page. One headless Chromium for all pages.
 */
export async function runLighthouse(baseUrl: string, paths: string[], runs: number, log: (line: string) => void): Promise<LighthousePage[]> {
  const floor = await startPageFloor(baseUrl, paths, log);
  let chrome: chromeLauncher.LaunchedChrome;
  try {
    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
    });
  } catch (error) {
    await floor.stop();
    throw error;
  }
  const forgetChrome = adoptGroup(chrome.pid);
  const pages = paths.map((p): LighthousePage => ({ path: p, app: [], floor: [] }));
  try {
    // Lighthouse takes the document's observed response time into its estimate: a first request,
    // the floor's cold server-side render (the app's page is already cached: startPageFloor read
    // it), would count a one-time cost. Each is asked for once, as a browser would, beforehand.
    for (const p of paths) {
      for (const origin of [baseUrl, floor.url]) await (await fetch(`${origin}${p}`, { headers: { 'Accept-Encoding': 'br' } })).arrayBuffer();
    }
    // Run after run, each page then its floor, so both see the same moment of a shared machine.
    for (let run = 1; run <= runs; run++) {
      for (const page of pages) {
        log(`lighthouse ${page.path} (run ${run}/${runs})`);
        page.app.push(await audit(chrome.port, `${baseUrl}${page.path}`, page.path));
        log(`lighthouse floor ${page.path} (run ${run}/${runs})`);
        page.floor.push(await audit(chrome.port, `${floor.url}${page.path}`, page.path));
      }
    }
  } finally {
    chrome.kill();
    forgetChrome();
    await floor.stop();
  }
  return pages;
}

async function audit(port: number, url: string, pagePath: string, attempt = 1): Promise<LighthouseRow> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...categories],
  });
  if (!result) throw new Error(`lighthouse returned nothing for ${pagePath}`);
  const { lhr } = result;
  // A trace Chromium failed to record (NO_NAVSTART on a loaded machine) says nothing about the page: once more.
  if (lhr.runtimeError && attempt < 2) return audit(port, url, pagePath, attempt + 1);
  if (lhr.runtimeError) throw new Error(`lighthouse failed on ${pagePath}: ${lhr.runtimeError.message}`);
  const score = (id: string) => lhr.categories[id]?.score ?? 0;
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const requests = (lhr.audits['network-requests']?.details as { items?: Array<{ resourceType?: string; transferSize?: number }> } | undefined)?.items ?? [];
  const failing: string[] = [];
  for (const id of categories) {
    const category = lhr.categories[id];
    if (!category || (category.score ?? 0) >= 1) continue;
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 0.9) {
        failing.push(`${id}: ${audit.id} (${audit.score})${describeItems(audit.details)}`);
      }
    }
  }
  // Lighthouse 13 names the LCP element in its LCP breakdown insight (a `node` item).
  const lcpItem = (lhr.audits['lcp-breakdown-insight']?.details as { items?: Array<{ type?: string; selector?: string }> } | undefined)?.items?.find((item) => item.type === 'node');
  return {
    path: pagePath,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    scriptTransferBytes: requests.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    failing,
    lcpElement: lcpItem?.selector ?? 'n/a',
  };
}

/**
 * The floor page (floor-page.ts) in its own process, showing for each path the
 * text of the app's page as the app serves it now.
 */
async function startPageFloor(baseUrl: string, paths: string[], log: (line: string) => void): Promise<{ url: string; stop(): Promise<void> }> {
  log('building the Lighthouse floor page');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'notary-floor-page-'));
  const built = await buildPageFloor(path.join(dir, 'client'));
  const pages: PageFloorSpec['pages'] = {};
  for (const p of paths) pages[p] = textBlocksOf(await (await fetch(`${baseUrl}${p}`)).text());
  const specFile = path.join(dir, 'spec.json');
  writeFileSync(specFile, JSON.stringify({ ...built, pages } satisfies PageFloorSpec));
  const child = spawnTracked(process.execPath, [path.join(import.meta.dirname, 'floor.ts'), 'page', specFile], {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = (JSON.parse(await firstLine(child, 'the Lighthouse floor page', 120_000)) as { url: string }).url;
  return {
    url,
    async stop() {
      await stopTracked(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A short hint of what an audit found (issue types, URLs), so the report says what to fix. */
function describeItems(details: unknown): string {
  const items = (details as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? [];
  const hints = items
    .slice(0, 3)
    .map((item) => {
      const sub = (item.subItems as { items?: Array<Record<string, unknown>> } | undefined)?.items?.[0];
      const text = item.issueType ?? item.url ?? item.source ?? sub?.url ?? sub?.directive ?? item.description;
      return typeof text === 'string' ? text : JSON.stringify(text ?? item).slice(0, 120);
    })
    .filter(Boolean);
  return hints.length > 0 ? ` — ${hints.join('; ')}` : '';
}
