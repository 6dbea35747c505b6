import { UPLOAD_RULES } from '../../src/config/limits.ts';

/**
 * Server-side rules that are Kinora's own (SPEC.md leaves them open). The business constants
 * SPEC §9 gives live in `src/config` and are imported from there.
 */

/**
 * Credits every new account receives, once, the first time it calls the API with a valid token
 * (a ledger row of kind 'grant'). SPEC does not name a starting balance; 100 lets a new user try
 * a few generations before buying.
 */
export const STARTING_CREDIT_GRANT = 100;
export const STARTING_CREDIT_REASON = 'Welcome credits';

// The handle rule is shared with the web app, which checks it before sending.
export { HANDLE_PATTERN, HANDLE_RULE, RESERVED_HANDLES } from '../../src/config/handle.ts';

/** The Authorization header is the raw access token (SPEC §7); a `Bearer ` prefix is tolerated. */
export const BEARER_PREFIX = /^Bearer\s+/i;

/**
 * Multipart limits for the upload calls of later issues: the largest SPEC §5 size limit per file;
 * each route checks its own media kind's limit.
 */
export const MULTIPART_LIMITS = {
  fileSize: Math.max(...Object.values(UPLOAD_RULES).map((rule) => rule.maxBytes)),
  files: 20,
  fields: 200,
  fieldSize: 5_000_000,
  parts: 240,
} as const;
