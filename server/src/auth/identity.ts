import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { attributeValue, createCognitoClient, isCognitoError } from './cognito-client.ts';
import type { CognitoAttribute, CognitoClient } from './cognito-client.ts';
import { cognitoFront } from './cognito-front.ts';
import { getUser } from './provision.ts';
import type { Identity, IdentityProvider } from './types.ts';

export interface CognitoIdentityOptions {
  /** Base URL of cognito-local, e.g. http://127.0.0.1:9329. */
  endpoint: string;
  userPoolId: string;
  clientId: string;
  /** Expected `iss`; defaults to `${endpoint}/${userPoolId}`, which is what the emulator writes when started by emulator.ts. */
  issuer?: string;
  /** Serve `/local/mailbox` (needs `emulatorDir`) and `/local/redirect-target`. */
  localMode: boolean;
  /** The folder cognito-local runs in (holds `.cognito/db`). */
  emulatorDir?: string;
  /** How long a user's e-mail is remembered between requests. */
  userCacheMs?: number;
}

interface CachedUser {
  email: string | null;
  preferredUsername: string | null;
  expiresAt: number;
}

/** The identity provider backed by cognito-local, reached over its Cognito JSON API. */
export function createCognitoIdentity(options: CognitoIdentityOptions): IdentityProvider {
  const client = createCognitoClient(options.endpoint);
  const issuer = options.issuer ?? `${client.endpoint}/${options.userPoolId}`;
  const jwks = createRemoteJWKSet(new URL(`${client.endpoint}/${options.userPoolId}/.well-known/jwks.json`));
  const cacheMs = options.userCacheMs ?? 30_000;
  // username → the user's e-mail and handle, so a burst of requests costs one lookup.
  const users = new Map<string, CachedUser>();

  /** The user's e-mail, or undefined when the user no longer exists. */
  const lookUpUser = async (username: string): Promise<CachedUser | undefined> => {
    const cached = users.get(username);
    if (cached && cached.expiresAt > Date.now()) return cached;
    const user = await getUser(client, options.userPoolId, username);
    if (!user) {
      users.delete(username);
      return undefined;
    }
    const entry = {
      email: attributeValue(user.UserAttributes, 'email'),
      preferredUsername: attributeValue(user.UserAttributes, 'preferred_username'),
      expiresAt: Date.now() + cacheMs,
    };
    users.set(username, entry);
    return entry;
  };

  const verifyAccessToken = async (token: string): Promise<Identity | null> => {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, jwks, { issuer, algorithms: ['RS256'] }));
    } catch (error) {
      // Bad signature, expired, wrong issuer, not a JWT: the token is invalid. Anything else (the
      // emulator unreachable) is the server's problem and must not pass for "signed out".
      if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout)) return null;
      throw error;
    }
    // An ID token or a token of another app client is signed by the same key: not an access token for us.
    if (payload.token_use !== 'access' || payload.client_id !== options.clientId) return null;
    const username = typeof payload.username === 'string' ? payload.username : payload['cognito:username'];
    if (typeof payload.sub !== 'string' || typeof username !== 'string') return null;
    const groupsClaim = payload['cognito:groups'];
    const groups = Array.isArray(groupsClaim) ? groupsClaim.filter((group): group is string => typeof group === 'string') : [];
    // The access token carries no e-mail; the user record does. A deleted user's token is refused.
    const user = await lookUpUser(username);
    if (!user) return null;
    return { sub: payload.sub, username, email: user.email, preferredUsername: user.preferredUsername, groups };
  };

  return {
    verifyAccessToken,
    routes: cognitoFront({
      client,
      userPoolId: options.userPoolId,
      verifyAccessToken,
      onUserChanged: (username) => users.delete(username),
      redirectTarget: options.localMode,
      ...(options.localMode && options.emulatorDir
        ? { mailbox: { emulatorDir: options.emulatorDir, userPoolId: options.userPoolId } }
        : {}),
    }),
    userExistsByEmail: async (email) => (await findUserByAttribute(client, options.userPoolId, 'email', email)) !== null,
    handleOwner: async (handle) => {
      const owner = await findUserByAttribute(client, options.userPoolId, 'preferred_username', handle);
      return owner ? attributeValue(owner.Attributes, 'sub') : null;
    },
    async deleteUser(username) {
      users.delete(username);
      try {
        await client.call('AdminDeleteUser', { UserPoolId: options.userPoolId, Username: username });
      } catch (error) {
        // Deleting twice (a retried DELETE users) is not an error.
        if (!isCognitoError(error, 'UserNotFoundException')) throw error;
      }
    },
  };
}

/**
 * The first pool user whose attribute `name` equals `value` ignoring case: "Guest@Kinora.local" is
 * the same mailbox as "guest@kinora.local" and handles are unique regardless of case, but
 * ListUsers filters match exactly, hence the scan (cognito-local returns every user in one page).
 */
async function findUserByAttribute(
  client: CognitoClient,
  userPoolId: string,
  name: string,
  value: string,
): Promise<{ Attributes?: CognitoAttribute[] } | null> {
  const wanted = value.trim().toLowerCase();
  let paginationToken: string | undefined;
  do {
    const page = await client.call<{ Users: { Attributes?: CognitoAttribute[] }[]; PaginationToken?: string }>(
      'ListUsers',
      { UserPoolId: userPoolId, ...(paginationToken ? { PaginationToken: paginationToken } : {}) },
    );
    const found = page.Users.find((user) => attributeValue(user.Attributes, name)?.toLowerCase() === wanted);
    if (found) return found;
    paginationToken = page.PaginationToken;
  } while (paginationToken);
  return null;
}
