import type { FastifyPluginAsync } from 'fastify';

/** Who made a request, as read from a verified Cognito access token. */
export interface Identity {
  sub: string;
  username: string;
  email: string | null;
  /** The public handle (SPEC §3 preferred_username), null until the user picks one. */
  preferredUsername: string | null;
  groups: string[];
}

/** What the API server needs from the sign-in provider (cognito-local locally, Cognito in production). */
export interface IdentityProvider {
  /** Verify a raw access token against the emulator's JWKS; null when invalid/expired. */
  verifyAccessToken(token: string): Promise<Identity | null>;
  /** Fastify plugin: `/cognito` front of the emulator and, in local mode, `/local/mailbox`. */
  routes?: FastifyPluginAsync;
  /** Look up whether a user with this e-mail exists (for auth/check). */
  userExistsByEmail(email: string): Promise<boolean>;
  /** The sub of the pool user whose preferred_username is `handle` (any case), or null. */
  handleOwner(handle: string): Promise<string | null>;
  /** Delete the user from the pool (for DELETE users). */
  deleteUser(username: string): Promise<void>;
}
