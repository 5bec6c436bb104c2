import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Config } from '../config.ts';
import { isUnder, routerPath } from './router-path.ts';

/**
 * Security headers on every response (see docs/decisions/003-security-headers.md).
 *
 * The Content-Security-Policy allows exactly what the pages load: our own
 * bundles ('self'), the inline scripts we render ourselves (config, router
 * hydration data) through the per-request nonce that `app.ts` puts in
 * `res.locals.cspNonce`, and Stripe's script, frames and API.
 *
 * helmet decides the headers, once, at start-up: its middleware runs against
 * a stand-in response with a marker for the nonce, and each response then gets
 * the headers it set, in its order and spelling, with the response's own
 * nonce where the marker was. Running helmet's eleven middlewares per response,
 * which build the same strings again every time, was ~0.02 ms of the
 * ~0.08 ms a `slots.list` costs the server (docs/decisions/132).
 */
export function securityHeaders(config: Config, options: { development?: boolean } = {}): RequestHandler {
  const { set, removed } = helmetOnce(helmet(helmetOptions(config, options.development ?? false)));
  const policy = (media: string) => `camera=(${media}), microphone=(${media}), geolocation=(), usb=(), browsing-topics=(), payment=(self "https://js.stripe.com")`;
  // Camera and microphone only on the session room's pages (a full page load: links into the room reload the document).
  const roomPolicy = policy('self');
  const otherPolicy = policy('');
  return (req, res, next) => {
    const nonce = String(res.locals.cspNonce);
    for (const [name, value] of set) res.setHeader(name, typeof value === 'string' ? value : value.join(nonce));
    for (const name of removed) res.removeHeader(name);
    res.setHeader('Permissions-Policy', isSessionRoomPath(req.path) ? roomPolicy : otherPolicy);
    next();
  };
}

/** helmet's options for our headers (exported for the test that holds the copy to helmet itself). */
export function helmetOptions(config: Config, development: boolean): Parameters<typeof helmet>[0] {
  const https = config.publicUrl.startsWith('https:');
  // Socket.IO upgrades to a WebSocket on our own origin. 'self' covers ws/wss in
  // CSP Level 3 browsers; older Safari needs the scheme spelled out.
  const socketOrigin = config.publicUrl.replace(/^http/, 'ws');

  const stripeScripts = ['https://js.stripe.com', 'https://*.js.stripe.com'];
  const directives: Record<string, Iterable<string | ((req: unknown, res: Response) => string)>> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", (_req, res) => `'nonce-${String(res.locals.cspNonce)}'`, ...stripeScripts],
    // React's style={...} props, Radix popper positioning and Stripe Elements all
    // set inline styles; a nonce cannot cover style attributes.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'https://*.stripe.com'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", socketOrigin, 'https://api.stripe.com', ...(development ? ['ws://localhost:*', 'ws://127.0.0.1:*'] : [])],
    'frame-src': [...stripeScripts, 'https://hooks.stripe.com'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'manifest-src': ["'self'"],
    'worker-src': ["'self'"],
    'script-src-attr': ["'none'"],
  };
  // Only on https: on a plain-http install (local, tests) it would rewrite every
  // subresource to https and break the page.
  if (https) directives['upgrade-insecure-requests'] = [];

  return {
    contentSecurityPolicy: { useDefaults: false, directives: directives as never },
    // Browsers ignore HSTS received over plain http (RFC 6797 §8.1), so sending it
    // always is harmless locally and right behind a TLS-terminating load balancer.
    // No includeSubDomains: the operator's other subdomains are not ours to pin.
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Some Stripe payment methods open a popup and talk to it.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: 'deny' },
  };
}

/**
 * What a helmet middleware does to a response: the headers it sets, in order
 * (a value that carries the nonce as the parts around it), and those it
 * removes. Its answer depends on nothing but the nonce: no directive of ours
 * reads the request.
 */
function helmetOnce(middleware: ReturnType<typeof helmet>): { set: Array<[string, string | string[]]>; removed: string[] } {
  const marker = `nonce-marker-${randomBytes(12).toString('hex')}`;
  const set: Array<[string, string | string[]]> = [];
  const removed: string[] = [];
  const res = {
    locals: { cspNonce: marker },
    setHeader: (name: string, value: unknown) => void set.push([name, String(value).includes(marker) ? String(value).split(marker) : String(value)]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let done = false;
  middleware({ headers: {} } as never, res as never, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  // helmet answers synchronously; if a later version did not, this copy would be incomplete.
  if (!done) throw new Error('helmet did not set its headers synchronously');
  return { set, removed };
}

/**
 * CSP nonces, one per response: 16 bytes of the system's CSPRNG each, as
 * base64. The bytes are drawn 4 KB at a time (one call per 256 responses, as
 * Node's own randomUUID batches), because a call per response was ~2 % of the
 * server's time on the busiest API calls (docs/decisions/053-trpc-fast-lane.md).
 * No byte is used twice.
 */
export function nonceSource(): () => string {
  let bytes = Buffer.alloc(0);
  let offset = 0;
  return () => {
    if (offset + 16 > bytes.length) {
      bytes = randomBytes(4096);
      offset = 0;
    }
    offset += 16;
    return bytes.toString('base64', offset - 16, offset);
  };
}

/** /booking/:token/session (customer), /invitation/:token/session (co-signer, witness) and /admin/appointments/:id/session (notary). */
export function isSessionRoomPath(path: string): boolean {
  const normal = routerPath(path);
  return normal !== null && /^\/(booking\/[^/]+|invitation\/[^/]+|admin\/appointments\/[^/]+)\/session\/?$/.test(normal);
}

/**
 * Paths whose answers are private or change with every call: never kept by a
 * browser, a proxy or a CDN. Hashed assets are the opposite (immutable, one
 * year, set where they are served).
 */
const privatePrefixes = ['/schedule', '/booking', '/invitation', '/admin', '/trpc', '/api', '/socket.io', '/readyz', '/healthz'];

export function isPrivatePath(path: string): boolean {
  const normal = routerPath(path);
  if (normal === null) return true;
  return privatePrefixes.some((prefix) => isUnder(normal, prefix)) || normal.endsWith('.ics');
}

export const noStoreForPrivatePaths: RequestHandler = (req, res, next) => {
  if (isPrivatePath(req.path)) {
    res.setHeader('Cache-Control', 'no-store');
  }
  next();
};

/**
 * Paths whose last segment is a bearer secret (the private manage link, the
 * one-time upload URL, staff invites and password resets). Logs keep the shape
 * of the path and lose the secret. Matched on the router's form of the path
 * (decoded, case-folded, single slashes), because that is what the router
 * serves: `/BOOKING/<token>` and `/%62ooking/<token>` open the same page.
 */
const secretPathPatterns: RegExp[] = [
  /^(\/booking\/)[^/]+/,
  /^(\/api\/uploads\/)[^/]+/,
  /^(\/admin\/(?:invite|invites|accept-invite|reset-password|reset)\/)[^/]+/,
];

export function redactPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  const normal = routerPath(path);
  // Undecodable: the router serves nothing for it, but it may still hold a secret.
  if (normal === null) return '[undecodable path]';
  // A secret path is logged in its router form, secret masked; any other path as it came.
  return secretPathPatterns.some((pattern) => pattern.test(normal))
    ? secretPathPatterns.reduce((current, pattern) => current.replace(pattern, '$1[redacted]'), normal)
    : path;
}

/**
 * The headers `securityHeaders` sets, as a plain list, for responses that do
 * not pass through Express: Socket.IO's engine answers polling and upgrade
 * requests itself. Computed by running the same middleware against a stand-in
 * response, so the two can never drift apart.
 */
export function securityHeaderList(config: Config): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    locals: { cspNonce: randomBytes(16).toString('base64') },
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  (securityHeaders(config) as unknown as (req: unknown, res: unknown, next: () => void) => void)({ headers: {} }, res, () => {});
  // Socket.IO answers are private (visitor ids, chat messages).
  headers['cache-control'] = 'no-store';
  return headers;
}

/**
 * Every Socket.IO response — handshake, polling, WebSocket upgrade, on any
 * namespace (chat today, others tomorrow) — carries the same security headers
 * as every other response. Set on the engine, below the namespaces; and, for
 * the engine's own refusals (`?EIO=3`, an unknown transport, a bad session id),
 * which it writes without its 'headers' event, on the HTTP server itself:
 * a listener ahead of the engine's sets them on every `/socket.io/` response
 * (`writeHead` merges them in).
 */
export function applySecurityHeadersToEngine(
  engine: { on(event: 'headers', listener: (headers: Record<string, string | string[]>) => void): unknown },
  config: Config,
  server?: { prependListener(event: 'request', listener: (req: IncomingMessage, res: ServerResponse) => void): unknown },
): void {
  const list = securityHeaderList(config);
  engine.on('headers', (headers) => {
    for (const [name, value] of Object.entries(list)) headers[name] = value;
  });
  server?.prependListener('request', (req, res) => {
    if (!req.url?.startsWith('/socket.io/')) return;
    for (const [name, value] of Object.entries(list)) res.setHeader(name, value);
  });
}
