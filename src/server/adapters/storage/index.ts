import path from 'node:path';
import type { Config } from '../../config.ts';
import { createLocalStorage } from './local.ts';
import type { ObjectStorage } from './types.ts';

export type { ListedObject, ObjectStorage, PutOptions, StoredObject } from './types.ts';
export { ObjectExistsError, ObjectNotFoundError } from './types.ts';

/** The storage adapter chosen by STORAGE_DRIVER; the AWS SDK is loaded only for S3 (start-up time). */
export async function createStorage(config: Config): Promise<ObjectStorage> {
  if (config.STORAGE_DRIVER === 's3') {
    const { createS3Storage } = await import('./s3.ts');
    return createS3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return createLocalStorage(path.join(config.DATA_DIR, 'documents'));
}
