import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import { buildRedirectUrl, isAbsoluteHttpUrl, isAllowedRedirect } from '@/lib/redirect-target';
import { selectModal, selectIsSignedIn, selectSessionStatus } from '@/machines/session/session.selectors';
import { getAccessToken } from '@/services/auth';
import type * as AuthService from '@/services/auth';
import { redeemCoupon } from '@/services/coupon';
import { buildUser, createFakes, startSession } from '../machines/session/session.fixtures';

vi.mock('@/services/coupon', () => ({ redeemCoupon: vi.fn() }));
vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthService>()),
  getAccessToken: vi.fn(),
}));

const ALLOWED = 'https://partner.example/oauth/callback';
const ALLOWLIST = [ALLOWED];

/** Addresses an attacker might pass as redirect_uri; none is the allowlisted one. */
const HOSTILE: readonly (readonly [string, string])[] = [
  ['protocol-relative', '//evil.example'],
  ['protocol-relative with the allowed path', '//evil.example/oauth/callback'],
  ['credentials before another host', 'https://app@evil.example'],
  ['the allowed host as user name', 'https://partner.example@evil.example/oauth/callback'],
  ['javascript:', 'javascript:alert(1)'],
  ['javascript: with the allowed address in a comment', 'javascript:alert(1)//https://partner.example/oauth/callback'],
  ['data:', 'data:text/html,<script>alert(document.cookie)</script>'],
  ['blob:', 'blob:https://partner.example/oauth/callback'],
  ['encoded slashes', '%2F%2Fevil.example'],
  ['encoded slashes after the scheme', 'https:%2F%2Fpartner.example%2Foauth%2Fcallback'],
  ['fully percent-encoded allowed address', 'https%3A%2F%2Fpartner.example%2Foauth%2Fcallback'],
  ['backslashes', 'https:\\\\evil.example'],
  ['backslashes around the allowed address', 'https:\\\\partner.example\\oauth\\callback'],
  ['scheme without slashes (the URL parser would fix it up)', 'https:partner.example/oauth/callback'],
  ['scheme with one slash', 'https:/partner.example/oauth/callback'],
  ['allowed host as a subdomain of another', 'https://partner.example.evil.example/oauth/callback'],
  ['allowed address as the path of another', 'https://evil.example/https://partner.example/oauth/callback'],
  ['unicode look-alike host (Cyrillic a)', 'https://p\u0430rtner.example/oauth/callback'],
  ['punycode look-alike host', 'https://xn--prtner-2uf.example/oauth/callback'],
  ['encoded dot in the host', 'https://partner%2Eexample/oauth/callback'],
  ['trailing dot on the host', 'https://partner.example./oauth/callback'],
  ['another port', 'https://partner.example:8443/oauth/callback'],
  ['the default port spelled out', 'https://partner.example:443/oauth/callback'],
  ['http instead of https', 'http://partner.example/oauth/callback'],
  ['trailing slash', 'https://partner.example/oauth/callback/'],
  ['added query', 'https://partner.example/oauth/callback?next=https://evil.example'],
  ['added fragment', 'https://partner.example/oauth/callback#@evil.example'],
  ['empty query', 'https://partner.example/oauth/callback?'],
  ['upper-case scheme and host', 'HTTPS://PARTNER.EXAMPLE/oauth/callback'],
  ['upper-case path', 'https://partner.example/OAuth/Callback'],
  ['leading space', ' https://partner.example/oauth/callback'],
  ['trailing space', 'https://partner.example/oauth/callback '],
  ['trailing newline', 'https://partner.example/oauth/callback\n'],
  ['tab inside', 'https://partner.example/oauth/\tcallback'],
  ['path traversal after the allowed path', 'https://partner.example/oauth/callback/../../evil'],
  ['path traversal that resolves to the allowed path', 'https://partner.example/oauth/../oauth/callback'],
  ['encoded path traversal', 'https://partner.example/oauth/callback%2F..%2F..%2Fevil'],
  ['prefix of something longer', 'https://partner.example/oauth/callbackevil'],
  ['a shorter prefix of the allowed address', 'https://partner.example/oauth'],
  ['no scheme', 'partner.example/oauth/callback'],
  ['relative path', '/oauth/callback'],
  ['empty', ''],
  ['another host entirely', 'https://evil.example/oauth/callback'],
];

describe('isAllowedRedirect', () => {
  it('accepts exactly an allowlisted address', () => {
    expect(isAllowedRedirect(ALLOWED, ALLOWLIST)).toBe(true);
    expect(isAllowedRedirect(ALLOWED, ['https://other.example/cb', ALLOWED])).toBe(true);
    expect(isAllowedRedirect('http://localhost:8787/local/redirect-target', ['http://localhost:8787/local/redirect-target'])).toBe(
      true,
    );
  });

  it('has a table of at least 20 hostile inputs', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(20);
  });

  it.each(HOSTILE)('refuses %s: %j', (_, uri) => {
    expect(isAllowedRedirect(uri, ALLOWLIST)).toBe(false);
  });

  it('refuses everything when the allowlist is empty', () => {
    expect(isAllowedRedirect(ALLOWED, [])).toBe(false);
  });

  it.each([
    ['a wildcard', '*'],
    ['a wildcard host', 'https://*.example/cb'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,hi'],
    ['protocol-relative', '//partner.example/oauth/callback'],
    ['a relative path', '/oauth/callback'],
    ['surrounding whitespace', ' https://partner.example/oauth/callback'],
    ['credentials', 'https://user:pw@partner.example/oauth/callback'],
    ['backslashes', 'https:\\\\partner.example\\cb'],
    ['empty', ''],
    ['not a URL', 'partner.example'],
  ])('does not honour an allowlist entry that is %s, even for the identical string', (_, entry) => {
    expect(isAbsoluteHttpUrl(entry)).toBe(false);
    expect(isAllowedRedirect(entry, [entry])).toBe(false);
  });
});

describe('buildRedirectUrl', () => {
  const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl';

  it('adds code (the base64 of the access token) and state', () => {
    const url = new URL(buildRedirectUrl(ALLOWED, token, 'xyz'));
    expect(`${url.origin}${url.pathname}`).toBe(ALLOWED);
    expect(url.searchParams.get('code')).toBe(btoa(token));
    expect(atob(url.searchParams.get('code')!)).toBe(token);
    expect(url.searchParams.get('state')).toBe('xyz');
  });

  it('keeps a query the address already has', () => {
    const url = new URL(buildRedirectUrl('https://partner.example/cb?client=kinora', token, 's'));
    expect(url.searchParams.get('client')).toBe('kinora');
    expect(url.searchParams.get('state')).toBe('s');
  });

  it('sends an empty state as given and encodes an unusual one', () => {
    expect(new URL(buildRedirectUrl(ALLOWED, token, '')).searchParams.get('state')).toBe('');
    const odd = 'a b&c=d#e';
    expect(new URL(buildRedirectUrl(ALLOWED, token, odd)).searchParams.get('state')).toBe(odd);
  });
});

describe('the session never redirects to a hostile redirect_uri', () => {
  beforeEach(() => {
    vi.mocked(getAccessToken).mockResolvedValue('header.payload.signature');
    vi.mocked(redeemCoupon).mockResolvedValue({ credits: 0 });
  });

  afterEach(() => {
    vi.clearAllMocks();
  });

  const startSignedIn = (search: string) => {
    const fakes = createFakes();
    fakes.loadUser.mockResolvedValue(buildUser());
    return startSession({ fakes, input: { location: { pathname: '/authentication', search } } });
  };

  it.each(HOSTILE)('from the query: %s', async (_, uri) => {
    const { actor, ofType } = startSignedIn(`?redirect_uri=${encodeURIComponent(uri)}&state=s`);
    const snapshot = await waitFor(actor, (s) => selectSessionStatus(s) === 'ready');
    expect(ofType('session.redirect')).toEqual([]);
    expect(getAccessToken).not.toHaveBeenCalled();
    expect(selectIsSignedIn(snapshot)).toBe(true);
    if (uri !== '') expect(selectModal(snapshot)).toEqual({ kind: 'redirectRefused', redirectUri: uri });
    actor.stop();
  });

  it.each(HOSTILE.filter(([, uri]) => uri !== ''))('stored while signed out: %s', async (_, uri) => {
    localStorage.setItem('redirect_uri', JSON.stringify(uri));
    localStorage.setItem('redirect_state', JSON.stringify('s'));
    const { actor, ofType } = startSignedIn('');
    const snapshot = await waitFor(actor, (s) => selectSessionStatus(s) === 'ready');
    expect(ofType('session.redirect')).toEqual([]);
    expect(getAccessToken).not.toHaveBeenCalled();
    expect(selectModal(snapshot)).toEqual({ kind: 'redirectRefused', redirectUri: uri });
    expect(localStorage.getItem('redirect_uri')).toBeNull();
    actor.stop();
  });

  it('and does redirect to the allowlisted one (the table is not vacuous)', async () => {
    const { actor, ofType } = startSignedIn(`?redirect_uri=${encodeURIComponent(ALLOWED)}&state=s`);
    await waitFor(actor, (s) => selectSessionStatus(s) === 'ready');
    expect(ofType('session.redirect')).toHaveLength(1);
    actor.stop();
  });
});
