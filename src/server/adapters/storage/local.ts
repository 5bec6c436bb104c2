import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { probeWritable, sweepTemporaryFiles } from '../../fs/atomic.ts';
import { assertSafeKey, type ByteRange, ObjectExistsError, ObjectNotFoundError, type ListedObject, type ObjectStorage, type PutOptions } from './types.ts';

/**
 * Documents in a folder (DATA_DIR/documents by default) that no static handler
 * serves. Each put writes a temporary file and renames it into place, so a
 * reader never sees a partial object and a failed stream leaves nothing behind.
 */
export function createLocalStorage(root: string): ObjectStorage {
  const absoluteRoot = path.resolve(root);
  const tmpDir = path.join(absoluteRoot, '.incoming');
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(absoluteRoot, ...key.split('/'));
  };

  return {
    driver: 'local',
    async ensureBucket() {
      await mkdir(tmpDir, { recursive: true, mode: 0o700 });
    },
    async put(key: string, body: Readable, options: PutOptions) {
      const target = fileOf(key);
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await mkdir(tmpDir, { recursive: true, mode: 0o700 });
      const temporary = path.join(tmpDir, randomUUID());
      try {
        // Flushed before the rename: after a power loss a file is whole or absent, never empty.
        await pipeline(body, createWriteStream(temporary, { flags: 'wx', mode: 0o600, flush: true }));
        if (options.upsert) {
          await rename(temporary, target);
        } else {
          // link() fails when the target exists: no silent overwrite.
          await link(temporary, target).catch((error: NodeJS.ErrnoException) => {
            throw error.code === 'EEXIST' ? new ObjectExistsError(key) : error;
          });
          await unlink(temporary);
        }
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      const { size } = await stat(target);
      return { size };
    },
    async get(key: string, range?: ByteRange) {
      const file = fileOf(key);
      try {
        const { size } = await stat(file);
        return { body: createReadStream(file, range ? { start: range.start, end: range.end } : {}), size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ObjectNotFoundError(key);
        throw error;
      }
    },
    async exists(key: string) {
      try {
        await stat(fileOf(key));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },
    async delete(key: string) {
      await rm(fileOf(key), { force: true });
    },
    async *list() {
      let batch: ListedObject[] = [];
      // Hidden entries (.incoming, probes) are never objects; keys never start with a dot.
      for (const entry of await readdir(absoluteRoot, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const file = path.join(entry.parentPath, entry.name);
        const key = path.relative(absoluteRoot, file).split(path.sep).join('/');
        if (key.split('/').some((part) => part.startsWith('.'))) continue;
        const info = await stat(file).catch(() => null);
        if (!info) continue; // deleted meanwhile
        batch.push({ key, modifiedAt: info.mtime });
        if (batch.length === 500) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
    async removeUnfinished(olderThan: Date) {
      return sweepTemporaryFiles(tmpDir, olderThan, '');
    },
    async ping() {
      // Writable, not merely present: a full or read-only disk shows on /readyz.
      await probeWritable(tmpDir);
    },
  };
}
