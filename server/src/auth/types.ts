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

/** The outcome of taking a handle in the server's users table (see HandleRegistry). */
export type HandleClaimResult =
  | { status: 'claimed'; /** Puts the previous handle back (the identity provider refused the change). */ release(): Promise<void> }
  | { status: 'taken' }
  | { status: 'invalid'; message: string }
  | { status: 'deleted' };

/**
 * Where handles are made unique: the `/cognito` front claims a handle here before it lets a user
 * set preferred_username in the pool (the pool itself does not enforce uniqueness).
 */
export interface HandleRegistry {
  claim(caller: Identity, handle: string): Promise<HandleClaimResult>;
  /** Whether `handle` could be claimed by a user who does not exist yet (a sign-up): the rule, then the owners. */
  check(handle: string): Promise<'free' | 'taken' | { invalid: string }>;
  /** The caller removed preferred_username from the pool. */
  cleared(caller: Identity): Promise<void>;
}

/** Options for registering an identity provider's routes. */
export interface IdentityRoutesOptions {
  /** Without it handles are not checked for uniqueness (tests of the front alone). */
  handles?: HandleRegistry;
}

/** What the API server needs from the sign-in provider (cognito-local locally, Cognito in production). */
export interface IdentityProvider {
  /** Verify a raw access token against the emulator's JWKS; null when invalid/expired. */
  verifyAccessToken(token: string): Promise<Identity | null>;
  /**
   * Fastify plugin: `/cognito` front of the emulator and, in local mode, `/local/mailbox` and
   * `/local/redirect-target`.
   */
  routes?: FastifyPluginAsync<IdentityRoutesOptions>;
  /** Look up whether a user with this e-mail exists (for auth/check). */
  userExistsByEmail(email: string): Promise<boolean>;
  /** The sub of the pool user whose preferred_username is `handle` (any case), or null. */
  handleOwner(handle: string): Promise<string | null>;
  /** Delete the user from the pool (for DELETE users). */
  deleteUser(username: string): Promise<void>;
}
