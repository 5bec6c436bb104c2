import type { Db } from '../../db/client.ts';
import { documentObjects } from '../documents/storage-owner.ts';
import { recordingObjects } from '../session/storage-owner.ts';

/**
 * Who owns the objects in storage — the one place a feature that stores
 * objects registers them, so the orphan sweep (sweep.ts) knows what it may delete.
 *
 * HOW A NEW KIND OF STORED OBJECT REGISTERS (recordings, identity images, sealed PDFs…):
 * 1. Give its keys a shape of their own (e.g. `recordings/{booking}/{id}.webm`).
 * 2. Write a `StorageOwner` next to the feature (see documents/storage-owner.ts):
 *    `matches(key)` — this key has my shape; `live(db, keys, now)` — of these
 *    keys, the ones a row still points to, or that a write in progress may
 *    still point to (a pending row). Answer for ANY key you are given, not only
 *    your own shape: every owner is asked about every candidate, so an object
 *    is kept when any owner claims it.
 * 3. Add it to `storageOwners` below.
 *
 * The sweep deletes an object only when (a) some owner's `matches` accepts its
 * key, (b) it was last written longer ago than the longest possible write, and
 * (c) no owner's `live` claims it. A key no owner matches is never touched: an
 * unregistered feature loses nothing, it merely gets no sweeping — unless its
 * keys happen to have a registered owner's shape, which is why step 2 asks
 * every owner about every candidate (register, and your objects are safe).
 */
export interface StorageOwner {
  /** For logs: what kind of object this is. */
  name: string;
  /** Whether the key has this owner's shape (only such keys are candidates for deletion). */
  matches(key: string): boolean;
  /** The subset of `keys` that must be kept. */
  live(db: Db, keys: string[], now: Date): Promise<Set<string>>;
}

export const storageOwners: StorageOwner[] = [documentObjects, recordingObjects];
