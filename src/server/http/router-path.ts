/**
 * A request path the way the client router matches it: each segment decoded
 * ("/%73chedule" is /schedule), doubled slashes collapsed, case ignored. Any
 * server-side decision about a page (caching, no-store, the console's gate)
 * must compare this form, or "/ADMIN" would slip past a check on "/admin".
 * Null for a path that cannot be decoded (the router would not match it either).
 */
export function routerPath(path: string): string | null {
  try {
    return decodeURIComponent(path).replace(/\/{2,}/g, '/').toLowerCase();
  } catch {
    return null;
  }
}

/** Whether `path` (router form) is `prefix` or below it. */
export function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}
