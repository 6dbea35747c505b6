import { z } from 'zod';

/**
 * The web app's environment, read from Vite's `VITE_*` variables once at start.
 * The same build can point at the local stack or at a production API, Cognito pool and payment
 * provider, so everything that differs between the two lives here and nowhere else.
 */

// Vite turns an unset variable in `.env` files into "", which should mean "not given".
const blankToUndefined = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const given = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema);

const isUrl = (value: string): boolean => URL.canParse(value);
const isPath = (value: string): boolean => value.startsWith('/');

const urlOrPath = z
  .string()
  .refine((value) => isUrl(value) || isPath(value), { message: 'must be a URL or a path starting with "/"' });

const url = z.string().refine(isUrl, { message: 'must be a URL' });

const booleanFlag = z
  .enum(['true', 'false'], { message: 'must be "true" or "false"' })
  .transform((value) => value === 'true');

const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== ''),
);

export const AUTH_FLOW_TYPES = ['USER_SRP_AUTH', 'USER_PASSWORD_AUTH'] as const;
export type AuthFlowType = (typeof AUTH_FLOW_TYPES)[number];

/** SPEC §1: two large platform logins and one device-maker login, as Amplify names them. */
export const SOCIAL_PROVIDERS = ['Google', 'Facebook', 'Apple'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

const socialProviderList = commaList.pipe(
  z.array(z.enum(SOCIAL_PROVIDERS, { message: `each must be one of ${SOCIAL_PROVIDERS.join(', ')}` })),
);

export const envSchema = z
  .object({
    VITE_API_URL: given(urlOrPath.default('/api')),
    VITE_API_KEY: given(z.string()),
    VITE_COGNITO_REGION: given(z.string().default('us-east-1')),
    VITE_COGNITO_USER_POOL_ID: given(z.string()),
    VITE_COGNITO_CLIENT_ID: given(z.string()),
    VITE_COGNITO_ENDPOINT: given(urlOrPath.optional()),
    VITE_AUTH_FLOW_TYPE: given(
      z.enum(AUTH_FLOW_TYPES, { message: `must be one of ${AUTH_FLOW_TYPES.join(', ')}` }).default('USER_SRP_AUTH'),
    ),
    VITE_SENTRY_DSN: given(url.optional()),
    VITE_SENTRY_ENVIRONMENT: given(z.string().default('production')),
    VITE_ANALYTICS_ENDPOINT: given(urlOrPath.optional()),
    VITE_SUPPORT_EMAIL: given(z.email({ message: 'must be an e-mail address' }).default('support@kinora.app')),
    VITE_MEDIA_HOST: given(url.default('')),
    VITE_PAYMENT_PROVIDER: given(z.string().default('stripe')),
    VITE_LOCAL_MODE: given(booleanFlag.default(false)),
    VITE_REDIRECT_ALLOWLIST: given(commaList.default([])),
    /** The shared guest account's published password; without it "Continue as guest" is disabled. */
    VITE_GUEST_PASSWORD: given(z.string().optional()),
    /** The user pool's hosted-UI domain; social sign-in needs it. */
    VITE_COGNITO_OAUTH_DOMAIN: given(z.string().optional()),
    /** The social identity providers the pool has, comma-separated (Google, Facebook, Apple). */
    VITE_COGNITO_SOCIAL_PROVIDERS: given(socialProviderList.default([])),
  })
  .transform((vars) => ({
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
  }));

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
