import { randomUUID } from 'node:crypto';
import { readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Every file the server writes appears whole or not at all
 * (docs/decisions/028-shutdown-and-atomic-writes.md): the bytes go to a hidden
 * temporary file in the same folder, are flushed to the disk, and the file is
 * renamed into place (atomic within one file system). A full disk, a crash or a
 * kill mid-write leaves at most the temporary file, which is removed on error
 * and otherwise swept at start-up (`sweepTemporaryFiles`).
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  const temporary = temporaryPath(file);
  try {
    await writeFile(temporary, data, { flag: 'wx', mode: options.mode ?? 0o600, flush: true });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Temporary files start with this, so readers listing a folder (`*.eml`) never see them. */
export const temporaryPrefix = '.tmp-';

export function temporaryPath(file: string): string {
  return path.join(path.dirname(file), `${temporaryPrefix}${randomUUID()}`);
}

/**
 * Proves a folder can be written right now (for /readyz): a full, read-only or
 * vanished disk fails here before it fails a visitor's upload or an email.
 * One block (4 KiB), flushed, so a disk with a few bytes left does not pass.
 */
export async function probeWritable(dir: string): Promise<void> {
  const probe = temporaryPath(path.join(dir, 'probe'));
  try {
    await writeFile(probe, Buffer.alloc(4096), { flag: 'wx', mode: 0o600, flush: true });
  } finally {
    await rm(probe, { force: true });
  }
}

/**
 * Removes temporary files last written before `olderThan` from a folder: what
 * a crash or kill left mid-write. Younger ones may belong to a write in
 * progress. `prefix` '' takes every file (a folder holding only temporaries).
 */
export async function sweepTemporaryFiles(dir: string, olderThan: Date, prefix = temporaryPrefix): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info?.isFile() && info.mtimeMs < olderThan.getTime()) {
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}
