/**
 * Where stored files go, from the environment (server/src/main.ts): KINORA_S3_BUCKET unset → the
 * local folder `${dataDir}/media` (the default, offline); set → that S3-compatible bucket.
 */

export interface S3Environment {
  bucket: string;
  /** An S3-compatible server's URL (MinIO, s3rver); omitted → AWS's endpoint for the region. */
  endpoint?: string;
  region: string;
  /** Path-style URLs (`{endpoint}/{bucket}/{key}`), which MinIO-like servers need. */
  forcePathStyle: boolean;
  /** Omitted → the SDK's default chain (AWS_* variables, shared files, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Put before every key: '' or segments ending with '/' (`kinora/`), so one bucket can serve several installs. */
  prefix: string;
}

export const DEFAULT_S3_REGION = 'us-east-1';
/** S3's rule for bucket names (3–63 of lower-case letters, digits, dots and hyphens; a letter or digit at each end). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]{1,64}$/;

type Env = Readonly<Record<string, string | undefined>>;

const valueOf = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
};

/**
 * KINORA_S3_BUCKET (unset → null: the local folder), KINORA_S3_ENDPOINT, KINORA_S3_REGION
 * (us-east-1), KINORA_S3_ACCESS_KEY_ID with KINORA_S3_SECRET_ACCESS_KEY (both or neither),
 * KINORA_S3_FORCE_PATH_STYLE (true/false; true by default when an endpoint is given),
 * KINORA_S3_PREFIX. Throws one error listing every variable that is wrong.
 */
export function parseStorageEnvironment(env: Env): S3Environment | null {
  const bucket = valueOf(env, 'KINORA_S3_BUCKET');
  const others = Object.keys(env).filter((name) => name.startsWith('KINORA_S3_') && name !== 'KINORA_S3_BUCKET' && valueOf(env, name) !== undefined);
  if (bucket === undefined) {
    if (others.length > 0) throw new Error(`${others.sort().join(', ')} ${others.length === 1 ? 'is' : 'are'} set but KINORA_S3_BUCKET is not: set the bucket to store files in S3, or unset them to use the local folder.`);
    return null;
  }
  const problems: string[] = [];
  if (!BUCKET_NAME.test(bucket)) problems.push(`KINORA_S3_BUCKET must be an S3 bucket name (3–63 lower-case letters, digits, dots and hyphens; got "${bucket}")`);

  const endpoint = valueOf(env, 'KINORA_S3_ENDPOINT');
  if (endpoint !== undefined && !isHttpUrl(endpoint)) problems.push(`KINORA_S3_ENDPOINT must be an http:// or https:// URL (got "${endpoint}")`);

  const region = valueOf(env, 'KINORA_S3_REGION') ?? DEFAULT_S3_REGION;
  if (!REGION.test(region)) problems.push(`KINORA_S3_REGION must be a region name such as us-east-1 (got "${region}")`);

  const pathStyle = valueOf(env, 'KINORA_S3_FORCE_PATH_STYLE');
  if (pathStyle !== undefined && pathStyle !== 'true' && pathStyle !== 'false') {
    problems.push(`KINORA_S3_FORCE_PATH_STYLE must be true or false (got "${pathStyle}")`);
  }

  const accessKeyId = valueOf(env, 'KINORA_S3_ACCESS_KEY_ID');
  const secretAccessKey = valueOf(env, 'KINORA_S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    problems.push('KINORA_S3_ACCESS_KEY_ID and KINORA_S3_SECRET_ACCESS_KEY go together: set both, or neither to use the SDK\'s default credentials');
  }

  const rawPrefix = valueOf(env, 'KINORA_S3_PREFIX') ?? '';
  const trimmedPrefix = rawPrefix.replace(/^\/+|\/+$/g, '');
  const plainFolder = (segment: string): boolean => /^[A-Za-z0-9._-]+$/.test(segment) && !/^\.+$/.test(segment);
  if (trimmedPrefix !== '' && !trimmedPrefix.split('/').every(plainFolder)) {
    problems.push(`KINORA_S3_PREFIX must be folder names of letters, digits, '.', '_' and '-' separated by '/' (got "${rawPrefix}")`);
  }

  if (problems.length > 0) throw new Error(`The S3 storage settings are wrong:\n- ${problems.join('\n- ')}`);
  return {
    bucket,
    ...(endpoint !== undefined ? { endpoint } : {}),
    region,
    forcePathStyle: pathStyle === undefined ? endpoint !== undefined : pathStyle === 'true',
    ...(accessKeyId !== undefined && secretAccessKey !== undefined ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    prefix: trimmedPrefix === '' ? '' : `${trimmedPrefix}/`,
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
