import type { FastifyRequest } from 'fastify';
import type { Identity, IdentityProvider } from '../auth/types.ts';
import { BEARER_PREFIX } from '../config.ts';
import type { Database } from '../db/database.ts';
import { ensureUser, type UserRow } from '../db/users.ts';
import { HttpError } from './http.ts';
import { NOT_AUTHENTICATED } from './messages.ts';

/** The caller of a user call: the verified token's identity and the user's row. */
export interface AuthUser extends Identity {
  row: UserRow;
}

export interface UserAuth {
  /** The signed-in caller, or a 401 "User needs to be authenticated to call this API." */
  requireUser(request: FastifyRequest): Promise<AuthUser>;
  /** The signed-in caller when a valid token came with the call, else null (never a 401). */
  optionalUser(request: FastifyRequest): Promise<AuthUser | null>;
}

/** SPEC §7: `Authorization` carries the raw access token, not "Bearer …". */
function readToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const token = header.replace(BEARER_PREFIX, '').trim();
  return token === '' ? null : token;
}

export function createUserAuth(db: Database, identity: IdentityProvider): UserAuth {
  async function optionalUser(request: FastifyRequest): Promise<AuthUser | null> {
    const token = readToken(request);
    if (!token) return null;
    const verified = await identity.verifyAccessToken(token);
    if (!verified) return null;
    const row = await ensureUser(db, {
      sub: verified.sub,
      username: verified.username,
      email: verified.email,
      preferredUsername: verified.preferredUsername,
    });
    // A deleted account's tokens stay cryptographically valid until they expire; they must not
    // bring the account back.
    if (row.deleted_at) return null;
    return { ...verified, row };
  }

  return {
    optionalUser,
    async requireUser(request) {
      const user = await optionalUser(request);
      if (!user) throw new HttpError(401, NOT_AUTHENTICATED);
      return user;
    },
  };
}
