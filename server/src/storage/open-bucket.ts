import path from 'node:path';
import type { S3Environment } from './environment.ts';
import { openS3Bucket, type S3Bucket } from './s3-bucket.ts';

/**
 * The bucket KINORA_S3_BUCKET names, checked before the server starts (HeadBucket), so a wrong
 * name, endpoint or key stops it with the reason instead of failing the first upload. Downloads
 * the renderers need as files are cached in `${dataDir}/s3-cache`.
 */
export async function openConfiguredBucket(settings: S3Environment, dataDir: string): Promise<S3Bucket> {
  const bucket = await openS3Bucket({ ...settings, cacheDir: path.join(dataDir, 's3-cache') });
  try {
    await bucket.check();
  } catch (error) {
    bucket.close();
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new Error(`KINORA_S3_BUCKET: ${bucket.description} cannot be used (${reason}). Check the bucket, endpoint, region and credentials.`, {
      cause: error,
    });
  }
  return bucket;
}
