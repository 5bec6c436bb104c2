import type { Deps } from '../../deps.ts';
import { storageOwners, type StorageOwner } from './owners.ts';

/**
 * Sweeps what crashes leave in storage (docs/decisions/029-orphan-sweep.md):
 * temporary files and unfinished multipart uploads, the local mailbox's
 * temporary files, and objects no row points to any more (a kill between
 * moving an upload into place and its commit; a crash between a commit that
 * marks a document deleted and the delete of its bytes).
 *
 * Safe on several nodes at once, without a lock: an object is deleted only
 * when it is older than `orphanGraceMs` — longer than any write can take from
 * its first byte to its commit — and no registered owner claims it in the
 * committed state of the database. Such an object can never become live again,
 * so two nodes deciding alike both delete it, and deleting twice is a no-op.
 */

/** Link (15 min) + upload (15 min) is the longest write; doubled for clock skew between nodes and the store. */
export const orphanGraceMs = 60 * 60_000;

export interface SweepReport {
  /** Objects no owner claims, deleted. */
  orphans: number;
  /** Temporary files / unfinished multipart uploads removed from the document store. */
  unfinished: number;
  /** Temporary files removed from the local mailbox. */
  mailTemporaries: number;
}

export async function sweepStorage(deps: Deps, options: { owners?: StorageOwner[]; graceMs?: number } = {}): Promise<SweepReport> {
  const owners = options.owners ?? storageOwners;
  const now = deps.now();
  const cutoff = new Date(now.getTime() - (options.graceMs ?? orphanGraceMs));
  const report: SweepReport = { orphans: 0, unfinished: 0, mailTemporaries: 0 };
  report.unfinished = await deps.storage.removeUnfinished(cutoff);
  report.mailTemporaries = (await deps.mail.sweep?.(cutoff)) ?? 0;
  for await (const batch of deps.storage.list()) {
    const candidates = batch
      .filter((object) => object.modifiedAt < cutoff && owners.some((owner) => owner.matches(object.key)))
      .map((object) => object.key);
    if (candidates.length === 0) continue;
    // Every owner is asked about every candidate: kept when any of them claims it.
    const live = new Set<string>();
    for (const owner of owners) for (const key of await owner.live(deps.db, candidates, now)) live.add(key);
    for (const key of candidates) {
      if (live.has(key)) continue;
      await deps.storage.delete(key);
      report.orphans++;
    }
  }
  // Keys carry booking ids (a capability, decision 022): counts only.
  if (report.orphans + report.unfinished + report.mailTemporaries > 0) deps.log.warn(report, 'storage sweep removed what crashes left behind');
  return report;
}
