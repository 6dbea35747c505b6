/**
 * The server's redaction pass (issue 22: nothing secret may be stored or leave). Every inspector
 * log and problem report is run through it before it is written, whatever the browser already
 * removed: a value under a secret-looking key becomes "[redacted]", and so does a token-shaped
 * piece of any string (a JWT, a `Bearer …` credential, the signature of a signed file link).
 *
 * SECRET_KEY is the rule of src/lib/inspection/json-safe.ts, kept as a copy: the server may not
 * import src/lib/inspection (eslint.config.js) and json-safe.ts does not export it.
 * tests/server/routes/inspection.test.ts checks the two redact the same keys.
 */
export const REDACTED = '[redacted]';

export const SECRET_KEY = /password|token|secret|api_?key|authorization|cvc|otp|^code$|card_?number/i;

/** A JWT: three base64url parts, the header's starting `eyJ` (`{"`). */
const JWT = /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
/** An HTTP credential as sent in Authorization: `Bearer <token>`. */
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi;
/**
 * Query parameters that grant something: a signed link's signature (Kinora's file links, S3
 * presigned links), a token or key, a one-time code or an OAuth state.
 */
const SIGNED_QUERY = /([?&](?:signature|sig|x-amz-signature|x-amz-credential|x-amz-security-token|access_token|id_token|token|api_?key|key|code|state)=)[^&#\s"']+/gi;
/** The signature segment of a media item's signed base_url: /api/files/m/{id}/{expires}/{signature}. */
const SIGNED_MEDIA_BASE = /(\/api\/files\/m\/[^/\s]+\/\d+\/)[0-9a-f]{64}/gi;

/** A string with every token-shaped piece replaced by "[redacted]". */
export function redactText(text: string): string {
  if (text.length < 8) return text;
  return text
    .replace(JWT, REDACTED)
    .replace(BEARER, REDACTED)
    .replace(SIGNED_QUERY, `$1${REDACTED}`)
    .replace(SIGNED_MEDIA_BASE, `$1${REDACTED}`);
}

/**
 * A redacted copy of a parsed JSON value. Keys are checked as they are (a secret-looking key keeps
 * its name, its value goes) and cleaned of tokens like any other string. The input guard has
 * already bounded the nesting of request bodies (JSON_DEPTH_MAX), so plain recursion is safe.
 */
export function redactJson(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactJson(item));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    result[redactText(key)] = SECRET_KEY.test(key) ? REDACTED : redactJson(item);
  }
  return result;
}
