import { en } from 'zod/locales';
import { z } from 'zod/mini';

// zod/mini loads no locale by itself; English, as `zod` sets it (see services/schemas/zod-mini.ts).
z.config(en());

/**
 * The web app's environment, read from Vite's `VITE_*` variables once at start.
 * The same build can point at the local stack or at a production API, Cognito pool and payment
 * provider, so everything that differs between the two lives here and nowhere else.
 */

// Vite turns an unset variable in `.env` files into "", which should mean "not given".
const blankToUndefined = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;


const isUrl = (value: string): boolean => URL.canParse(value);
const isPath = (value: string): boolean => value.startsWith('/');

const urlOrPath = z
  .string()
  .check(z.refine((value) => isUrl(value) || isPath(value), { message: 'must be a URL or a path starting with "/"' }));

const url = z.string().check(z.refine(isUrl, { message: 'must be a URL' }));

const booleanFlag = z.pipe(
  z.enum(['true', 'false'], { message: 'must be "true" or "false"' }),
  z.transform((value) => value === 'true'),
);

const commaList = z.pipe(
  z.string(),
  z.transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  ),
);

export const AUTH_FLOW_TYPES = ['USER_SRP_AUTH', 'USER_PASSWORD_AUTH'] as const;
export type AuthFlowType = (typeof AUTH_FLOW_TYPES)[number];

/** SPEC §1: two large platform logins and one device-maker login, as Amplify names them. */
export const SOCIAL_PROVIDERS = ['Google', 'Facebook', 'Apple'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

const socialProviderList = z.pipe(
  commaList,
  z.array(z.enum(SOCIAL_PROVIDERS, { message: `each must be one of ${SOCIAL_PROVIDERS.join(', ')}` })),
);

// zod/mini (a fraction of zod's weight in the initial bundle); blank values are turned into
// undefined before parsing (see `withoutBlanks`), so defaults and optionals apply to them.
const envVarsSchema = z.object({
  VITE_API_URL: z._default(urlOrPath, '/api'),
  VITE_API_KEY: z.string(),
  VITE_COGNITO_REGION: z._default(z.string(), 'us-east-1'),
  VITE_COGNITO_USER_POOL_ID: z.string(),
  VITE_COGNITO_CLIENT_ID: z.string(),
  VITE_COGNITO_ENDPOINT: z.optional(urlOrPath),
  VITE_AUTH_FLOW_TYPE: z._default(
    z.enum(AUTH_FLOW_TYPES, { message: `must be one of ${AUTH_FLOW_TYPES.join(', ')}` }),
    'USER_SRP_AUTH',
  ),
  VITE_SENTRY_DSN: z.optional(url),
  VITE_SENTRY_ENVIRONMENT: z._default(z.string(), 'production'),
  VITE_ANALYTICS_ENDPOINT: z.optional(urlOrPath),
  VITE_SUPPORT_EMAIL: z._default(z.email({ message: 'must be an e-mail address' }), 'support@kinora.app'),
  VITE_MEDIA_HOST: z._default(url, ''),
  VITE_PAYMENT_PROVIDER: z._default(z.string(), 'stripe'),
  VITE_LOCAL_MODE: z._default(booleanFlag, false),
  VITE_REDIRECT_ALLOWLIST: z._default(commaList, []),
  /** The shared guest account's published password; without it "Continue as guest" is disabled. */
  VITE_GUEST_PASSWORD: z.optional(z.string()),
  /** The user pool's hosted-UI domain; social sign-in needs it. */
  VITE_COGNITO_OAUTH_DOMAIN: z.optional(z.string()),
  /** The social identity providers the pool has, comma-separated (Google, Facebook, Apple). */
  VITE_COGNITO_SOCIAL_PROVIDERS: z._default(socialProviderList, []),
});

/** The source with every blank value (Vite's unset variable) as undefined. */
const withoutBlanks = (source: unknown): unknown =>
  typeof source === 'object' && source !== null
    ? Object.fromEntries(Object.entries(source).map(([key, value]) => [key, blankToUndefined(value)]))
    : source;

export const envSchema = z.pipe(
  z.pipe(z.transform(withoutBlanks), envVarsSchema),
  z.transform((vars) => ({
    apiUrl: vars.VITE_API_URL,
    apiKey: vars.VITE_API_KEY,
    cognitoRegion: vars.VITE_COGNITO_REGION,
    cognitoUserPoolId: vars.VITE_COGNITO_USER_POOL_ID,
    cognitoClientId: vars.VITE_COGNITO_CLIENT_ID,
    cognitoEndpoint: vars.VITE_COGNITO_ENDPOINT,
    authFlowType: vars.VITE_AUTH_FLOW_TYPE,
    sentryDsn: vars.VITE_SENTRY_DSN,
    sentryEnvironment: vars.VITE_SENTRY_ENVIRONMENT,
    analyticsEndpoint: vars.VITE_ANALYTICS_ENDPOINT,
    supportEmail: vars.VITE_SUPPORT_EMAIL,
    mediaHost: vars.VITE_MEDIA_HOST,
    paymentProvider: vars.VITE_PAYMENT_PROVIDER,
    localMode: vars.VITE_LOCAL_MODE,
    redirectAllowlist: vars.VITE_REDIRECT_ALLOWLIST,
    guestPassword: vars.VITE_GUEST_PASSWORD,
    oauthDomain: vars.VITE_COGNITO_OAUTH_DOMAIN,
    // A provider is only usable through a hosted-UI domain.
    socialProviders: vars.VITE_COGNITO_OAUTH_DOMAIN ? vars.VITE_COGNITO_SOCIAL_PROVIDERS : [],
  })),
);

export type Env = z.output<typeof envSchema>;

/** Thrown when the environment is incomplete; `issues` holds one readable line per variable. */
export class EnvError extends Error {
  readonly issues: string[];

  constructor(issues: string[]) {
    super(`Kinora cannot start: the environment is incomplete.\n${issues.map((line) => `- ${line}`).join('\n')}`);
    this.name = 'EnvError';
    this.issues = issues;
  }
}

function describeIssue(issue: z.core.$ZodIssue, source: Record<string, unknown>): string {
  const variable = String(issue.path[0] ?? '(environment)');
  if (blankToUndefined(source[variable]) === undefined) return `${variable} is missing`;
  return `${variable} is invalid: ${issue.message}`;
}

export function parseEnv(source: Record<string, unknown>): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const issues = [...new Set(result.error.issues.map((issue) => describeIssue(issue, source)))];
  throw new EnvError(issues);
}

export function loadEnv(): Env {
  return parseEnv(import.meta.env);
}
