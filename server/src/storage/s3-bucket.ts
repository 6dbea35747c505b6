import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Environment } from './environment.ts';
import { checkFolder, checkKey, type ByteRange, type ObjectStore } from './object-store.ts';

export interface S3BucketSettings extends S3Environment {
  /** Where localCopy keeps downloaded objects (a folder of this machine's, e.g. `${dataDir}/s3-cache`). */
  cacheDir: string;
}

export interface S3Bucket extends ObjectStore {
  /** Closes the client's connections. */
  close(): void;
}

/** Objects removed at once when a folder goes (one DeleteObject each: every S3-compatible server has it). */
const REMOVE_CONCURRENCY = 8;

/**
 * An S3-compatible bucket through `@aws-sdk/client-s3` (ARCHITECTURE.md §4b, KINORA_S3_BUCKET).
 * The SDK is imported here, when a bucket is opened, so the local folder's path (`npm start`)
 * never loads it.
 *
 * How each operation maps onto S3, as the AWS documentation gives it:
 * - client: https://docs.aws.amazon.com/AWSJavaScriptSDK/v3/latest/client/s3/ (S3Client's
 *   `endpoint` and `forcePathStyle` for MinIO-like servers);
 * - put: PutObject, https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html (an object
 *   appears whole or not at all);
 * - size: HeadObject (404 → no object), https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html;
 * - read: GetObject with `Range: bytes=start-end` (one range per request, as the file routes ask),
 *   https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html;
 * - remove, removeFolder: DeleteObject (204 for a missing key too), listing the folder's keys with
 *   ListObjectsV2 and `Prefix`, https://docs.aws.amazon.com/AmazonS3/latest/API/API_DeleteObject.html,
 *   https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html;
 * - listFolders: ListObjectsV2 with `Delimiter: '/'` (CommonPrefixes are the folders);
 *   folderChangedAt: the latest LastModified under the folder's prefix;
 * - check: HeadBucket, https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadBucket.html.
 */
export async function openS3Bucket(settings: S3BucketSettings): Promise<S3Bucket> {
  const sdk = await import('@aws-sdk/client-s3');
  const client: S3Client = new sdk.S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // Since 3.729 the SDK adds CRC checksums to every upload and checks them on every download by
    // default; many S3-compatible servers (older MinIO, s3rver) refuse or lack them. Only where
    // S3 requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const { bucket, prefix } = settings;
  const cacheRoot = path.resolve(settings.cacheDir);
  const objectKey = (key: string): string => `${prefix}${checkKey(key)}`;
  const folderPrefix = (folder: string): string => `${prefix}${checkFolder(folder)}/`;
  const cachedFile = (key: string): string => path.join(cacheRoot, checkKey(key));

  /** Every object under a key prefix, page by page. */
  async function* objectsUnder(keyPrefix: string): AsyncGenerator<{ Key?: string; LastModified?: Date }> {
    for await (const page of sdk.paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: keyPrefix })) {
      yield* page.Contents ?? [];
    }
  }

  async function removeObjects(keys: readonly string[]): Promise<void> {
    for (let at = 0; at < keys.length; at += REMOVE_CONCURRENCY) {
      await Promise.all(keys.slice(at, at + REMOVE_CONCURRENCY).map((Key) => client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key }))));
    }
  }

  // Concurrent localCopy calls for one key share one download.
  const downloading = new Map<string, Promise<string>>();

  async function download(key: string, target: string): Promise<string> {
    await mkdir(path.dirname(target), { recursive: true });
    const answer = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    // Written aside and renamed: another caller never takes half a download for the file.
    const partial = `${target}.${process.pid}.${Date.now().toString(36)}.partial`;
    try {
      await pipeline(bodyStream(answer.Body, key), createWriteStream(partial));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return target;
  }

  return {
    description: `the S3 bucket ${bucket}${prefix ? ` (keys under ${prefix})` : ''}${settings.endpoint ? ` at ${settings.endpoint}` : ''}`,
    async put(key, data, contentType) {
      await client.send(
        new sdk.PutObjectCommand({ Bucket: bucket, Key: objectKey(key), Body: data, ContentType: contentType, ContentLength: data.length }),
      );
    },
    async size(key) {
      try {
        const head = await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return head.ContentLength ?? null;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async read(key, range) {
      const answer = await client.send(
        new sdk.GetObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const body = bodyStream(answer.Body, key);
      return range ? exactRange(body, answer, range, key) : body;
    },
    async localCopy(key) {
      const target = cachedFile(key);
      const cached = await stat(target).then(
        (info) => info.isFile(),
        () => false,
      );
      if (cached) return target;
      const running = downloading.get(key);
      if (running) return running;
      const started = download(key, target).finally(() => downloading.delete(key));
      downloading.set(key, started);
      return started;
    },
    async remove(keys) {
      await removeObjects(keys.map(objectKey));
      for (const key of keys) await rm(cachedFile(key), { force: true });
    },
    async removeFolder(folder) {
      const keys: string[] = [];
      for await (const object of objectsUnder(folderPrefix(folder))) if (object.Key) keys.push(object.Key);
      await removeObjects(keys);
      await rm(path.join(cacheRoot, checkFolder(folder)), { recursive: true, force: true });
    },
    async listFolders() {
      const folders: string[] = [];
      const pages = sdk.paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: prefix, Delimiter: '/' });
      for await (const page of pages) {
        for (const common of page.CommonPrefixes ?? []) {
          const folder = common.Prefix?.slice(prefix.length).replace(/\/$/, '');
          if (folder) folders.push(folder);
        }
      }
      return folders;
    },
    async folderChangedAt(folder) {
      let latest: number | null = null;
      for await (const object of objectsUnder(folderPrefix(folder))) {
        const changed = object.LastModified?.getTime();
        if (changed !== undefined && (latest === null || changed > latest)) latest = changed;
      }
      return latest;
    },
    async check() {
      await client.send(new sdk.HeadBucketCommand({ Bucket: bucket }));
    },
    close() {
      client.destroy();
    },
  };
}

/** GetObject's body on Node is a Readable (an http.IncomingMessage with the SDK's helpers mixed in). */
function bodyStream(body: unknown, key: string): Readable {
  if (body instanceof Readable) return body;
  throw new Error(`GetObject answered no readable body for ${key}`);
}

/**
 * The bytes asked for, exactly: the file routes have already promised their Content-Length. Some
 * S3-compatible servers answer more than the range (s3rver 3.7.1 reads `bytes=0-0` as `bytes=0-`;
 * a server without range support sends the whole object): a longer answer from the right start is
 * cut at the range's end; anything else is an error rather than wrong bytes.
 */
function exactRange(body: Readable, answer: { ContentRange?: string; ContentLength?: number }, range: ByteRange, key: string): Readable {
  const served = /^bytes (\d+)-(\d+)\/\d+$/.exec(answer.ContentRange ?? '');
  const from = served ? Number(served[1]) : 0;
  const to = served ? Number(served[2]) : (answer.ContentLength ?? 0) - 1;
  if (from !== range.start || to < range.end) {
    body.destroy();
    throw new Error(`the bucket answered bytes ${from}-${to} of ${key} for bytes ${range.start}-${range.end}`);
  }
  if (to === range.end) return body;
  const length = range.end - range.start + 1;
  return Readable.from(
    (async function* firstBytes() {
      let left = length;
      // Leaving the loop destroys the bucket's stream: the rest is never read.
      for await (const chunk of body) {
        const part = (chunk as Buffer).subarray(0, left);
        left -= part.length;
        yield part;
        if (left === 0) break;
      }
    })(),
    { objectMode: false },
  );
}

/** A 404 from HeadObject (no body, so the SDK names it NotFound) or GetObject (NoSuchKey). */
function isNotFound(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return status === 404;
}
