import type { Readable } from 'node:stream';

export interface PutOptions {
  contentType: string;
  /** Seconds; the spec's `cacheControl: 3600`. Only meaningful to stores that serve HTTP. */
  cacheControlSeconds?: number;
  /** The spec's `upsert: true`: replace an object already at the key. */
  upsert?: boolean;
}

export interface StoredObject {
  body: Readable;
  size: number;
}

/**
 * Private object storage for customers' documents. Keys are
 * `{booking-uuid}/{random-uuid}.{ext}`; nothing here is ever served statically,
 * bytes leave only through authorised handlers.
 */
export interface ObjectStorage {
  readonly driver: 'local' | 's3';
  /** The spec's "list buckets, create if missing", run once at start-up. Always private. */
  ensureBucket(): Promise<void>;
  /**
   * Streams `body` into the store. When `body` errors (too large, aborted) the
   * object is not created: a half-written file is never visible under `key`.
   */
  put(key: string, body: Readable, options: PutOptions): Promise<{ size: number }>;
  /** Throws `ObjectNotFoundError` when absent. */
  get(key: string): Promise<StoredObject>;
  exists(key: string): Promise<boolean>;
  /** Idempotent: deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Cheap reachability check for /healthz-style probes. */
  ping(): Promise<void>;
}

export class ObjectNotFoundError extends Error {
  constructor(key: string) {
    super(`No stored object at ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

export class ObjectExistsError extends Error {
  constructor(key: string) {
    super(`An object already exists at ${key}`);
    this.name = 'ObjectExistsError';
  }
}

/** Keys are built by us, but a path must never climb out of the store. */
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(key) || key.includes('..')) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
}
