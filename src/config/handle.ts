/**
 * The public handle (SPEC §3 preferred_username) is Kinora's own rule: SPEC only says the server
 * checks availability. The web app checks the format first so a person sees the rule before any
 * request; the server enforces it again.
 */

/** 3–30 letters, digits, `_`, `.` or `-`. */
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
