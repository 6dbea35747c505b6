/**
 * A minimal client for the Cognito user-pool JSON protocol (what the AWS SDK sends), used against
 * cognito-local. Plain fetch keeps the AWS SDK out of the server.
 */

export const AMZ_JSON = 'application/x-amz-json-1.1';
const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

/** An error answered by the emulator, with Cognito's error type (e.g. `UserNotFoundException`). */
export class CognitoError extends Error {
  readonly type: string;
  readonly status: number;

  constructor(type: string, message: string, status: number) {
    super(`${type}: ${message}`);
    this.name = 'CognitoError';
    this.type = type;
    this.status = status;
  }
}

export interface CognitoAttribute {
  Name: string;
  Value?: string;
}

export interface CognitoUser {
  Username: string;
  Attributes?: CognitoAttribute[];
  UserAttributes?: CognitoAttribute[];
  UserStatus?: string;
  Enabled?: boolean;
}

export interface AuthenticationResult {
  AccessToken: string;
  IdToken: string;
  RefreshToken?: string;
  ExpiresIn?: number;
  TokenType?: string;
}

export interface CognitoClient {
  readonly endpoint: string;
  call<T>(action: string, body: Record<string, unknown>): Promise<T>;
}

export function attributeValue(attributes: CognitoAttribute[] | undefined, name: string): string | null {
  return attributes?.find((attribute) => attribute.Name === name)?.Value ?? null;
}

/**
 * True when fetch failed because the emulator had already closed a pooled keep-alive socket: the
 * request never reached it, so sending it again on a fresh connection is safe. This happens after
 * the event loop was blocked for longer than the emulator's keep-alive timeout (opening PGlite).
 */
function isStaleSocket(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET';
}

/** Sends `body` to `endpoint` as the named action, as the AWS SDK would. */
export async function rawCognitoCall(endpoint: string, action: string, body: string): Promise<Response> {
  const send = () =>
    fetch(`${endpoint}/`, {
      method: 'POST',
      headers: { 'Content-Type': AMZ_JSON, 'X-Amz-Target': `${TARGET_PREFIX}${action}` },
      body,
    });
  try {
    return await send();
  } catch (error) {
    if (!isStaleSocket(error)) throw error;
    return send();
  }
}

export function createCognitoClient(endpoint: string): CognitoClient {
  const base = endpoint.replace(/\/+$/, '');
  return {
    endpoint: base,
    async call<T>(action: string, body: Record<string, unknown>): Promise<T> {
      const response = await rawCognitoCall(base, action, JSON.stringify(body));
      const text = await response.text();
      const parsed: unknown = text ? JSON.parse(text) : {};
      if (!response.ok) {
        const error = (parsed ?? {}) as { __type?: string; message?: string };
        throw new CognitoError(error.__type ?? 'UnknownError', error.message ?? text, response.status);
      }
      return parsed as T;
    },
  };
}

export function isCognitoError(error: unknown, type: string): boolean {
  return error instanceof CognitoError && error.type === type;
}
