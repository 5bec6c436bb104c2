import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

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
}

const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

/**
 * Lighthouse's default run: mobile form factor, simulated throttling (slow 4G,
 * 4x CPU slowdown), a cold cache per page. One headless Chromium for all pages.
 */
export async function runLighthouse(baseUrl: string, paths: string[], log: (line: string) => void): Promise<LighthouseRow[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
  });
  const rows: LighthouseRow[] = [];
  try {
    for (const path of paths) {
      log(`lighthouse ${path}`);
      const result = await lighthouse(`${baseUrl}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...categories],
      });
      if (!result) throw new Error(`lighthouse returned nothing for ${path}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`lighthouse failed on ${path}: ${lhr.runtimeError.message}`);
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
      rows.push({
        path,
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
      });
    }
  } finally {
    chrome.kill();
  }
  return rows;
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
