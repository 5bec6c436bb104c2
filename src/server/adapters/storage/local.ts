import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, ObjectExistsError, ObjectNotFoundError, type ObjectStorage, type PutOptions } from './types.ts';

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
        await pipeline(body, createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
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
    async get(key: string) {
      const file = fileOf(key);
      try {
        const { size } = await stat(file);
        return { body: createReadStream(file), size };
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
    async ping() {
      await stat(absoluteRoot);
    },
  };
}
