import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { assertSafeKey, type ByteRange, ObjectExistsError, ObjectNotFoundError, type ListedObject, type ObjectStorage, type PutOptions } from './types.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
}

/** S3's smallest allowed part (except the last): also the most we hold in memory per upload. */
const partBytes = 5 * 1024 * 1024;

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey' || error.name === 'NoSuchBucket');

/**
 * Any S3-compatible store. The body arrives as a stream of unknown length, so a
 * small object goes up in one PutObject and a larger one as a multipart upload
 * of 5 MiB parts: memory stays bounded and a stream that fails midway aborts the
 * multipart upload, leaving no object.
 */
export function createS3Storage(options: S3StorageOptions): ObjectStorage {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    // Checksums only where S3 requires them: several S3-compatible stores reject
    // the SDK's default CRC32 trailers (aws/aws-sdk-js-v3#6810).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
  });
  const Bucket = options.bucket;

  async function exists(key: string) {
    try {
      await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  return {
    driver: 's3',
    async ensureBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        if (!isNotFound(error)) throw error;
        // Created without any ACL: S3 buckets are private unless opened up on purpose.
        try {
          await client.send(new CreateBucketCommand({ Bucket }));
        } catch (createError) {
          // docs/product.md §4.2's wording; start-up stops with it, so no upload is ever attempted.
          const message = createError instanceof Error ? createError.message : String(createError);
          throw new Error(`Error creating storage bucket: ${message}`, { cause: createError });
        }
      }
    },

    async put(key: string, body: Readable, putOptions: PutOptions) {
      assertSafeKey(key);
      if (!putOptions.upsert && (await exists(key))) throw new ObjectExistsError(key);
      const common = {
        Bucket,
        Key: key,
        ContentType: putOptions.contentType,
        CacheControl: putOptions.cacheControlSeconds ? `private, max-age=${putOptions.cacheControlSeconds}` : undefined,
      };

      let buffered: Buffer[] = [];
      let bufferedBytes = 0;
      let uploadId: string | undefined;
      const parts: { ETag: string | undefined; PartNumber: number }[] = [];
      let total = 0;

      const flushPart = async () => {
        if (!uploadId) {
          const created = await client.send(new CreateMultipartUploadCommand(common));
          uploadId = created.UploadId;
        }
        const PartNumber = parts.length + 1;
        const chunk = Buffer.concat(buffered, bufferedBytes);
        buffered = [];
        bufferedBytes = 0;
        const uploaded = await client.send(
          new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber, Body: chunk, ContentLength: chunk.length }),
        );
        parts.push({ ETag: uploaded.ETag, PartNumber });
      };

      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          buffered.push(chunk);
          bufferedBytes += chunk.length;
          total += chunk.length;
          if (bufferedBytes >= partBytes) await flushPart();
        }
        if (!uploadId) {
          const whole = Buffer.concat(buffered, bufferedBytes);
          await client.send(new PutObjectCommand({ ...common, Body: whole, ContentLength: whole.length }));
        } else {
          if (bufferedBytes > 0) await flushPart();
          await client.send(
            new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
          );
        }
      } catch (error) {
        if (uploadId) {
          await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId })).catch(() => {});
        }
        throw error;
      }
      return { size: total };
    },

    async get(key: string, range?: ByteRange) {
      assertSafeKey(key);
      try {
        const result = await client.send(new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
        // A ranged answer's ContentLength is the range's; ContentRange ends with the whole size.
        const whole = range ? Number(/\/(\d+)$/.exec(result.ContentRange ?? '')?.[1] ?? NaN) : NaN;
        return { body: result.Body as Readable, size: Number.isFinite(whole) ? whole : Number(result.ContentLength ?? 0) };
      } catch (error) {
        if (isNotFound(error)) throw new ObjectNotFoundError(key);
        throw error;
      }
    },

    exists(key: string) {
      assertSafeKey(key);
      return exists(key);
    },

    async delete(key: string) {
      assertSafeKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async ping() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },

    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken, MaxKeys: 500 }));
        const batch: ListedObject[] = (page.Contents ?? [])
          .filter((object) => object.Key && object.LastModified)
          .map((object) => ({ key: object.Key!, modifiedAt: object.LastModified! }));
        if (batch.length > 0) yield batch;
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    async removeUnfinished(olderThan: Date) {
      // A node killed mid-upload leaves its multipart upload open: invisible, but stored and billed.
      let removed = 0;
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      do {
        let page;
        try {
          page = await client.send(new ListMultipartUploadsCommand({ Bucket, KeyMarker, UploadIdMarker }));
        } catch (error) {
          // Some S3-compatible stores (and test stand-ins) do not implement the listing.
          if (error instanceof S3ServiceException && (error.name === 'NotImplemented' || error.$metadata.httpStatusCode === 501)) return removed;
          throw error;
        }
        for (const upload of page.Uploads ?? []) {
          if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= olderThan) continue;
          await client.send(new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }));
          removed++;
        }
        KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
        UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
      } while (KeyMarker);
      return removed;
    },
  };
}
