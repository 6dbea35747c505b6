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

/** A public handle (preferred_username): 3–30 letters, digits, `_`, `.` or `-`. */
export const HANDLE_PATTERN = /^[A-Za-z0-9_.-]{3,30}$/;
export const HANDLE_RULE = 'A handle has 3 to 30 characters: letters, digits, "_", "." or "-".';

/**
 * Handles nobody may take: the shared guest account's name and words that would read as
 * Kinora speaking (compared case-insensitively).
 */
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  'guest',
  'admin',
  'administrator',
  'kinora',
  'support',
  'api',
  'cognito',
  'local',
  'root',
  'system',
]);

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
