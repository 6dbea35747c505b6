/**
 * The handle (preferred_username) rule the server enforces (server/src/config.ts HANDLE_PATTERN
 * and HANDLE_RULE), checked here first so a person sees the rule before any request. It belongs
 * in src/config, where both sides can read it once.
 */
export const HANDLE_PATTERN = /^[A-Za-z0-9_.-]{3,30}$/;
export const HANDLE_RULE = 'A handle has 3 to 30 characters: letters, digits, "_", "." or "-".';
