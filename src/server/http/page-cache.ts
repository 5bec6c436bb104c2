import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { isUnder, routerPath } from './router-path.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Rendered public pages, kept so the server renders and compresses each URL once.
 *
 * A public page's HTML depends only on its URL and the build, so every response
 * sends the same bytes: its inline scripts carry no nonce — the page's
 * Content-Security-Policy allows them by their SHA-256 hashes instead, computed
 * here — and the brotli and gzip bodies are made once, off the main thread, when
 * the page enters the cache. See docs/decisions/019-rendered-page-cache.md.
 */
export interface CachedPage {
  status: number;
  /** The same page three ways; a response copies one of them, it never re-encodes. */
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** Strong validator of the page (the encodings append -br / -gz). */
  etag: string;
  /** CSP source expressions allowing exactly the page's inline scripts: `'sha256-…'`. */
  scriptHashes: string[];
  bytes: number;
}

export interface PageCache {
  get(key: string): CachedPage | undefined;
  /**
   * Hashes, compresses (asynchronously) and stores `html`; resolves the page.
   * With `generation` (read before rendering), a page rendered before a
   * `clear()` is answered but not stored.
   */
  set(key: string, status: number, html: string, generation?: number): Promise<CachedPage>;
  /** Forgets every page (what they show changed: the notaries' hours, decision 096). */
  clear(): void;
  /** Raised by every `clear()`. */
  readonly generation: number;
  readonly size: number;
  readonly bytes: number;
}

export interface PageCacheOptions {
  maxEntries: number;
  maxBytes: number;
}

/**
 * Inline scripts that a browser executes: `<script>` without `src`, of no type
 * or a JavaScript type (data blocks such as JSON-LD are never executed, so CSP
 * does not apply to them). Returns each one's text as the browser hashes it.
 */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1]!;
    if (/\ssrc\s*=/i.test(attributes)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== 'module' && type !== 'text/javascript' && type !== 'application/javascript') continue;
    scripts.push(match[2]!);
  }
  return scripts;
}

export function scriptHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/** Brotli at its highest quality: done once per page, so the smallest transfer wins. */
export async function compressPage(html: string, status: number): Promise<CachedPage> {
  const identity = Buffer.from(html, 'utf8');
  const [br, gz] = await Promise.all([
    brotli(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzipAsync(identity, { level: 9 }),
  ]);
  const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  const scriptHashes = [...new Set(inlineScripts(html).map(scriptHash))];
  return { status, identity, br, gzip: gz, etag, scriptHashes, bytes: identity.length + br.length + gz.length };
}

/** Bounded LRU (a Map keeps insertion order: re-inserting on a hit makes it the newest). */
export function createPageCache(options: PageCacheOptions): PageCache {
  const entries = new Map<string, CachedPage>();
  let bytes = 0;
  let generation = 0;

  const evictOldest = () => {
    const oldest = entries.keys().next();
    if (oldest.done) return;
    bytes -= entries.get(oldest.value)!.bytes;
    entries.delete(oldest.value);
  };

  return {
    get(key) {
      const page = entries.get(key);
      if (!page) return undefined;
      entries.delete(key);
      entries.set(key, page);
      return page;
    },
    async set(key, status, html, renderedIn) {
      const page = await compressPage(html, status);
      const size = page.bytes + key.length;
      if (size > options.maxBytes || (renderedIn !== undefined && renderedIn !== generation)) return page;
      const previous = entries.get(key);
      if (previous) {
        bytes -= previous.bytes;
        entries.delete(key);
      }
      entries.set(key, { ...page, bytes: size });
      bytes += size;
      while (entries.size > options.maxEntries || bytes > options.maxBytes) evictOldest();
      return page;
    },
    clear() {
      entries.clear();
      bytes = 0;
      generation++;
    },
    get generation() {
      return generation;
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

export type PageEncoding = 'br' | 'gzip' | 'identity';

/** The best encoding the client accepts (brotli, then gzip), from its Accept-Encoding header. */
export function chooseEncoding(acceptEncoding: string | undefined): PageEncoding {
  const q = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name, qParam ? Number(qParam.slice(2)) || 0 : 1);
  }
  const accepted = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  if (accepted('br')) return 'br';
  if (accepted('gzip')) return 'gzip';
  return 'identity';
}

/** The representation's strong ETag: one per encoding (RFC 9110 §8.8.3.3). */
export function etagFor(page: CachedPage, encoding: PageEncoding): string {
  return encoding === 'identity' ? page.etag : `${page.etag.slice(0, -1)}-${encoding === 'br' ? 'br' : 'gz'}"`;
}

/** If-None-Match (weak comparison, as RFC 9110 §13.1.2 asks for GET): does the client hold this representation? */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
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
