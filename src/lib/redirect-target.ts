/**
 * The external authorisation redirect of SPEC §4 ("send the browser to
 * {redirect_uri}?code={base64 of the current access token}&state={state}"). The access token is a
 * credential, so the browser is only ever sent to an address the deployment names in its
 * allowlist, compared as plain strings: nothing is trimmed, case-folded, decoded, normalised or
 * matched by prefix, suffix or wildcard.
 */

// Whitespace, control characters and backslashes: browsers and the URL parser quietly drop or
// rewrite them, so an entry holding one is not the address it appears to be.
const hasUnsafeCharacter = (value: string): boolean =>
  [...value].some((character) => {
    const code = character.codePointAt(0) ?? 0;
    return code <= 0x20 || code === 0x7f || character === '\\' || /\s/u.test(character);
  });

/**
 * An allowlist entry counts only when it is itself an absolute http(s) URL without credentials,
 * and holds no "*" (an entry is one address, never a pattern).
 */
export const isAbsoluteHttpUrl = (entry: string): boolean => {
  if (entry === '' || hasUnsafeCharacter(entry) || entry.includes('*') || !/^https?:\/\//i.test(entry)) return false;
  if (!URL.canParse(entry)) return false;
  const url = new URL(entry);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && !url.username && !url.password;
};

/** True only when `uri` is exactly (string equality) one of the allowlist's valid entries. */
export const isAllowedRedirect = (uri: string, allowlist: readonly string[]): boolean =>
  allowlist.some((entry) => entry === uri && isAbsoluteHttpUrl(entry));

/** base64 of an ASCII string (a JWT is ASCII: base64url parts joined by dots). */
const toBase64 = (value: string): string => btoa(value);

/**
 * {uri}?code={base64 of the token}&state={state}, kept as a URL so a query the address already
 * has survives. `state` may be empty; it is sent as given.
 */
export const buildRedirectUrl = (uri: string, accessToken: string, state: string): string => {
  const url = new URL(uri);
  url.searchParams.set('code', toBase64(accessToken));
  url.searchParams.set('state', state);
  return url.toString();
};
