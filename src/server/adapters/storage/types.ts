import type { Readable } from 'node:stream';

export interface PutOptions {
  contentType: string;
  /** Seconds; `cacheControl: 3600` (docs/product.md §4.2). Only meaningful to stores that serve HTTP. */
  cacheControlSeconds?: number;
  /** `upsert: true` (docs/product.md §4.2): replace an object already at the key. */
  upsert?: boolean;
}

export interface StoredObject {
  body: Readable;
  /** The whole object's size, also when only a range was asked for. */
  size: number;
}

/** Inclusive byte range, as in an HTTP `Range: bytes=start-end` (seeking in a recording). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Private object storage for customers' documents. Keys are
 * `{booking-uuid}/{random-uuid}.{ext}`; nothing here is ever served statically,
 * bytes leave only through authorised handlers.
 */
export interface ObjectStorage {
  readonly driver: 'local' | 's3';
  /** "List buckets, create if missing", run once at start-up. Always private. */
  ensureBucket(): Promise<void>;
  /**
   * Streams `body` into the store. When `body` errors (too large, aborted) the
   * object is not created: a half-written file is never visible under `key`.
   */
  put(key: string, body: Readable, options: PutOptions): Promise<{ size: number }>;
  /** Throws `ObjectNotFoundError` when absent. With `range`, `body` holds only those bytes. */
  get(key: string, range?: ByteRange): Promise<StoredObject>;
  exists(key: string): Promise<boolean>;
  /** Idempotent: deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Cheap check for /readyz: the local folder is written to (a probe file), S3 answers HeadBucket. */
  ping(): Promise<void>;
  /** Every object, in batches, with when it was last written (for the orphan sweep). */
  list(): AsyncIterable<ListedObject[]>;
  /**
   * Removes what interrupted writes left behind and no key points to — temporary
   * files (local), unfinished multipart uploads (S3) — older than `olderThan`.
   * Returns how many were removed.
   */
  removeUnfinished(olderThan: Date): Promise<number>;
}

export interface ListedObject {
  key: string;
  modifiedAt: Date;
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
