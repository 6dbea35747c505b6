import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Environment } from '../../../server/src/storage/environment.ts';

/**
 * A local S3-compatible server for the storage tests (issue 20 item 2): s3rver, in this test
 * file's process on a free port of 127.0.0.1, its objects in a temporary folder, one bucket made
 * at start. Each test file that needs it starts its own (it starts in milliseconds), so files
 * running side by side never see each other's objects.
 */

// The AWS SDK warns once per process that its releases after January 2027 need Node 22; the tests
// run on Node 20 on purpose (package.json engines), and the warning would only be noise in their output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** s3rver's fixed key pair. */
const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const TEST_BUCKET = 'kinora-test';

export interface TestS3Server {
  /** What a server is given to store in the bucket (as parseStorageEnvironment answers it). */
  settings: S3Environment;
  /** Every key in the bucket, sorted (ListObjectsV2 through the SDK: what is really stored). */
  keys(prefix?: string): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startTestS3Server(options: { prefix?: string } = {}): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'kinora-s3rver-'));
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: TEST_BUCKET }] });
  let port: number;
  try {
    ({ port } = await s3rver.run());
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const settings: S3Environment = {
    bucket: TEST_BUCKET,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    prefix: options.prefix ?? '',
  };
  const sdk = await import('@aws-sdk/client-s3');
  const client = new sdk.S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    settings,
    async keys(prefix = '') {
      const keys: string[] = [];
      for await (const page of sdk.paginateListObjectsV2({ client }, { Bucket: TEST_BUCKET, Prefix: prefix })) {
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      }
      return keys.sort();
    },
    async stop() {
      client.destroy();
      await s3rver.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
