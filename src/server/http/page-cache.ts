import { randomBytes } from 'node:crypto';
import { isUnder, routerPath } from './router-path.ts';

/**
 * Rendered public pages, kept so the server renders each URL once.
 *
 * A public page's HTML depends only on its URL and the build — except the
 * per-response CSP nonce. The page is rendered once with a placeholder nonce
 * (random per process, so no page text can forge it) and stored split on that
 * placeholder; each response joins the parts with its own nonce.
 */
export interface CachedPage {
  status: number;
  /** The page's HTML split on the nonce placeholder, encoded once (a response copies bytes, it never re-encodes). */
  parts: Buffer[];
  bytes: number;
}

export interface PageCache {
  readonly placeholder: string;
  get(key: string): CachedPage | undefined;
  /** Stores `html` (rendered with `placeholder` as its nonce). */
  set(key: string, status: number, html: string): void;
  readonly size: number;
  readonly bytes: number;
}

export interface PageCacheOptions {
  maxEntries: number;
  maxBytes: number;
}

/** Bounded LRU (a Map keeps insertion order: re-inserting on a hit makes it the newest). */
export function createPageCache(options: PageCacheOptions): PageCache {
  const placeholder = `csp-nonce-${randomBytes(16).toString('hex')}`;
  const entries = new Map<string, CachedPage>();
  let bytes = 0;

  const evictOldest = () => {
    const oldest = entries.keys().next();
    if (oldest.done) return;
    bytes -= entries.get(oldest.value)!.bytes;
    entries.delete(oldest.value);
  };

  return {
    placeholder,
    get(key) {
      const page = entries.get(key);
      if (!page) return undefined;
      entries.delete(key);
      entries.set(key, page);
      return page;
    },
    set(key, status, html) {
      const parts = html.split(placeholder).map((part) => Buffer.from(part, 'utf8'));
      const size = parts.reduce((sum, part) => sum + part.length, key.length);
      if (size > options.maxBytes) return;
      const previous = entries.get(key);
      if (previous) {
        bytes -= previous.bytes;
        entries.delete(key);
      }
      entries.set(key, { status, parts, bytes: size });
      bytes += size;
      while (entries.size > options.maxEntries || bytes > options.maxBytes) evictOldest();
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

export function pageWithNonce(page: CachedPage, nonce: string): Buffer {
  const nonceBytes = Buffer.from(nonce, 'utf8');
  const chunks: Buffer[] = [];
  page.parts.forEach((part, i) => {
    if (i > 0) chunks.push(nonceBytes);
    chunks.push(part);
  });
  return Buffer.concat(chunks);
}

/**
 * Pages whose HTML may differ per visitor or carry state in the URL: the
 * booking wizard (resumes a draft), the manage-booking page (a secret token
 * in the path) and the staff console (behind a session). The router matches
 * paths case-insensitively, so the comparison is too. Very long URLs are
 * not worth keeping.
 */
const uncachedPrefixes = ['/schedule', '/booking', '/admin'];
const maxCachedUrlLength = 256;

export function isCacheablePage(method: string, path: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (url.length > maxCachedUrlLength) return false;
  const lower = routerPath(path);
  if (lower === null) return false;
  return !uncachedPrefixes.some((prefix) => isUnder(lower, prefix));
}
