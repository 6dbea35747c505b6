import { describe, expect, it } from 'vitest';
import { parseStorageEnvironment } from '../../../server/src/storage/environment.ts';

describe('parseStorageEnvironment', () => {
  it('keeps files in the local folder when KINORA_S3_BUCKET is unset or empty', () => {
    expect(parseStorageEnvironment({})).toBeNull();
    expect(parseStorageEnvironment({ KINORA_S3_BUCKET: '  ', PATH: '/usr/bin' })).toBeNull();
  });

  it('reads a bucket on AWS with the default region and credential chain', () => {
    expect(parseStorageEnvironment({ KINORA_S3_BUCKET: 'kinora-media' })).toEqual({
      bucket: 'kinora-media',
      region: 'us-east-1',
      forcePathStyle: false,
      prefix: '',
    });
  });

  it('reads a MinIO-like server: endpoint, keys, region, path-style by default, a prefix', () => {
    expect(
      parseStorageEnvironment({
        KINORA_S3_BUCKET: 'media',
        KINORA_S3_ENDPOINT: 'http://127.0.0.1:9000',
        KINORA_S3_REGION: 'eu-west-3',
        KINORA_S3_ACCESS_KEY_ID: 'minio',
        KINORA_S3_SECRET_ACCESS_KEY: 'minio-secret',
        KINORA_S3_PREFIX: '/staging/kinora/',
      }),
    ).toEqual({
      bucket: 'media',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-3',
      forcePathStyle: true,
      credentials: { accessKeyId: 'minio', secretAccessKey: 'minio-secret' },
      prefix: 'staging/kinora/',
    });
    expect(parseStorageEnvironment({ KINORA_S3_BUCKET: 'media', KINORA_S3_ENDPOINT: 'https://s3.example.test', KINORA_S3_FORCE_PATH_STYLE: 'false' })?.forcePathStyle).toBe(false);
    expect(parseStorageEnvironment({ KINORA_S3_BUCKET: 'media', KINORA_S3_FORCE_PATH_STYLE: 'true' })?.forcePathStyle).toBe(true);
  });

  it('lists every wrong setting in one readable error', () => {
    const parse = () =>
      parseStorageEnvironment({
        KINORA_S3_BUCKET: 'My_Bucket',
        KINORA_S3_ENDPOINT: 'minio:9000',
        KINORA_S3_REGION: 'EU West',
        KINORA_S3_FORCE_PATH_STYLE: 'yes',
        KINORA_S3_ACCESS_KEY_ID: 'only-the-id',
        KINORA_S3_PREFIX: 'a/../b',
      });
    expect(parse).toThrow(
      [
        'The S3 storage settings are wrong:',
        '- KINORA_S3_BUCKET must be an S3 bucket name (3–63 lower-case letters, digits, dots and hyphens; got "My_Bucket")',
        '- KINORA_S3_ENDPOINT must be an http:// or https:// URL (got "minio:9000")',
        '- KINORA_S3_REGION must be a region name such as us-east-1 (got "EU West")',
        '- KINORA_S3_FORCE_PATH_STYLE must be true or false (got "yes")',
        "- KINORA_S3_ACCESS_KEY_ID and KINORA_S3_SECRET_ACCESS_KEY go together: set both, or neither to use the SDK's default credentials",
        "- KINORA_S3_PREFIX must be folder names of letters, digits, '.', '_' and '-' separated by '/' (got \"a/../b\")",
      ].join('\n'),
    );
    expect(() => parseStorageEnvironment({ KINORA_S3_BUCKET: 'ab' })).toThrow(/KINORA_S3_BUCKET must be an S3 bucket name/);
  });

  it('refuses S3 settings without a bucket rather than silently using the local folder', () => {
    expect(() => parseStorageEnvironment({ KINORA_S3_ENDPOINT: 'http://127.0.0.1:9000', KINORA_S3_REGION: 'us-east-1' })).toThrow(
      'KINORA_S3_ENDPOINT, KINORA_S3_REGION are set but KINORA_S3_BUCKET is not: set the bucket to store files in S3, or unset them to use the local folder.',
    );
  });
});
