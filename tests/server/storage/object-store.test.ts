import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalFolder } from '../../../server/src/storage/local-folder.ts';
import type { ObjectStore } from '../../../server/src/storage/object-store.ts';
import { openConfiguredBucket } from '../../../server/src/storage/open-bucket.ts';
import { openS3Bucket, type S3Bucket } from '../../../server/src/storage/s3-bucket.ts';
import { startTestS3Server, type TestS3Server } from '../helpers/s3.ts';

/**
 * The storage contract (server/src/storage/object-store.ts) on both implementations: the local
 * folder and an S3 bucket on s3rver. The file routes, the media store and the clip caches rely on
 * nothing else, so a store that passes here serves Kinora's files alike.
 */

let s3: TestS3Server;
let folder: string;
const opened: S3Bucket[] = [];
beforeAll(async () => {
  s3 = await startTestS3Server();
  folder = await mkdtemp(path.join(tmpdir(), 'kinora-object-store-'));
});
afterAll(async () => {
  for (const bucket of opened) bucket.close();
  await s3?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function bucket(options: { prefix?: string; bucket?: string } = {}): Promise<S3Bucket> {
  const store = await openS3Bucket({
    ...s3.settings,
    ...(options.bucket ? { bucket: options.bucket } : {}),
    prefix: options.prefix ?? '',
    cacheDir: await mkdtemp(path.join(folder, 'cache-')),
  });
  opened.push(store);
  return store;
}

async function bytesOf(stream: Promise<Readable>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** 1000 bytes that differ from one offset to the next, so a wrong range cannot pass. */
const DATA = Buffer.from(Array.from({ length: 1000 }, (_, index) => (index * 7 + 3) % 256));

const stores: [string, () => Promise<ObjectStore>][] = [
  ['the local folder', async () => createLocalFolder(await mkdtemp(path.join(folder, 'media-')))],
  ['an S3 bucket', () => bucket({ prefix: `run-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}/` })],
];

describe.each(stores)('%s', (_name, open) => {
  it('stores an object and answers its size, its bytes and any one range of them', async () => {
    const store = await open();
    await store.put('media0001/file-a.bin', DATA, 'application/octet-stream');
    expect(await store.size('media0001/file-a.bin')).toBe(DATA.length);
    expect(await store.size('media0001/missing.bin')).toBeNull();
    expect((await bytesOf(store.read('media0001/file-a.bin'))).equals(DATA)).toBe(true);
    for (const [start, end] of [
      [0, 0],
      [0, 9],
      [500, 749],
      [999, 999],
    ] as const) {
      const part = await bytesOf(store.read('media0001/file-a.bin', { start, end }));
      expect(part.equals(DATA.subarray(start, end + 1)), `bytes ${start}-${end}`).toBe(true);
    }
    await expect(bytesOf(store.read('media0001/missing.bin'))).rejects.toThrow();
  });

  it('gives a local file with the bytes, which goes when the object is removed', async () => {
    const store = await open();
    await store.put('media0002/picture.png', DATA, 'image/png');
    const copy = await store.localCopy('media0002/picture.png');
    expect((await readFile(copy)).equals(DATA)).toBe(true);
    expect(await store.localCopy('media0002/picture.png')).toBe(copy);
    await store.remove(['media0002/picture.png', 'media0002/never-stored.png']);
    expect(await store.size('media0002/picture.png')).toBeNull();
    expect(existsSync(copy)).toBe(false);
  });

  it('lists its folders with their last change, and removes a folder whole', async () => {
    const store = await open();
    const before = Date.now();
    await store.put('media0003/one.txt', Buffer.from('one'), 'text/plain');
    await store.put('media0003/two.txt', Buffer.from('two'), 'text/plain');
    await store.put('media0004/three.txt', Buffer.from('three'), 'text/plain');
    await store.put('promo.cache/p1.mp4', Buffer.from('clip'), 'video/mp4');
    expect((await store.listFolders()).sort()).toEqual(['media0003', 'media0004', 'promo.cache']);
    const changed = await store.folderChangedAt('media0003');
    // S3 keeps LastModified to the second.
    expect(changed).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(changed).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await store.folderChangedAt('media9999')).toBeNull();

    const copy = await store.localCopy('media0003/one.txt');
    await store.removeFolder('media0003');
    expect((await store.listFolders()).sort()).toEqual(['media0004', 'promo.cache']);
    expect(await store.size('media0003/two.txt')).toBeNull();
    expect(existsSync(copy)).toBe(false);
    expect(await store.size('media0004/three.txt')).toBe(5);
  });

  it('refuses keys that could leave their folder', async () => {
    const store = await open();
    for (const key of ['../outside.txt', 'media0005/../../x', '/absolute', 'a//b', 'a\\b', '']) {
      await expect(store.put(key, DATA, 'text/plain'), key).rejects.toThrow(/not a storage key/);
    }
    await expect(store.removeFolder('a/b')).rejects.toThrow(/not a storage folder/);
  });

  it('is ready when it can be used', async () => {
    await expect((await open()).check()).resolves.toBeUndefined();
  });
});

describe('an S3 bucket', () => {
  it('keeps its keys under KINORA_S3_PREFIX, and lists folders without it', async () => {
    const store = await bucket({ prefix: 'install-a/' });
    await store.put('media0006/file.txt', Buffer.from('x'), 'text/plain');
    expect(await s3.keys('install-a/')).toEqual(['install-a/media0006/file.txt']);
    expect(await store.listFolders()).toEqual(['media0006']);
  });

  it('is not ready when the bucket does not exist, and the server then refuses to start, saying why', async () => {
    const store = await bucket({ bucket: 'no-such-bucket' });
    await expect(store.check()).rejects.toThrow();
    await expect(openConfiguredBucket({ ...s3.settings, bucket: 'no-such-bucket' }, folder)).rejects.toThrow(
      /^KINORA_S3_BUCKET: the S3 bucket no-such-bucket at http:\/\/127\.0\.0\.1:\d+ cannot be used \(NotFound: .*\)\. Check the bucket, endpoint, region and credentials\.$/,
    );
    await expect(openConfiguredBucket(s3.settings, folder).then((opened) => opened.close())).resolves.toBeUndefined();
  });
});
