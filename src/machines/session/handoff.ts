import { STORAGE_KEYS } from '@/config/limits';
import { ROUTES } from '@/config/routes';
import type { CurrentUser } from '@/services/auth';
import { readStored, removeStored, writeStored } from '@/services/storage';

/**
 * What a URL can hand to the session (SPEC §2.2): a coupon to redeem and an external
 * authorisation redirect. Pure helpers plus the few local-storage steps of SPEC §4.
 */

/** The query parameters the post-load steps read, and remove from the address afterwards. */
export const HANDOFF_PARAMS = ['coupon_code', 'redirect_uri', 'state'] as const;

export interface HandoffQuery {
  couponCode: string | null;
  redirectUri: string | null;
  /** The redirect's state; '' when the query has none. */
  state: string;
}

const nonEmpty = (value: string | null): string | null => (value === null || value === '' ? null : value);

export const readHandoffQuery = (search: string): HandoffQuery => {
  const params = new URLSearchParams(search);
  return {
    couponCode: nonEmpty(params.get('coupon_code')),
    redirectUri: nonEmpty(params.get('redirect_uri')),
    state: params.get('state') ?? '',
  };
};

/** The search string without the handoff parameters ('' when nothing else is left). */
export const stripHandoffParams = (search: string): string => {
  const params = new URLSearchParams(search);
  for (const name of HANDOFF_PARAMS) params.delete(name);
  const rest = params.toString();
  return rest === '' ? '' : `?${rest}`;
};

export const hasHandoffParams = (search: string): boolean => {
  const params = new URLSearchParams(search);
  return HANDOFF_PARAMS.some((name) => params.has(name));
};

/** SPEC §4: a coupon_code (and a redirect_uri with its state) seen while signed out is kept until the user is known. */
export const storeHandoff = (search: string): void => {
  const query = readHandoffQuery(search);
  if (query.couponCode) writeStored(STORAGE_KEYS.couponCode, query.couponCode);
  if (query.redirectUri) {
    writeStored(STORAGE_KEYS.redirectUri, query.redirectUri);
    writeStored(STORAGE_KEYS.redirectState, query.state);
  }
};

export interface RedirectRequest {
  uri: string;
  state: string;
}

/**
 * SPEC §4 steps 1 and 2: a stored redirect_uri (with redirect_state) is taken first and both are
 * cleared; otherwise the query's redirect_uri with its state. Null when there is neither.
 */
export const takeRedirectRequest = (search: string): RedirectRequest | null => {
  const storedUri = readStored(STORAGE_KEYS.redirectUri);
  const storedState = readStored(STORAGE_KEYS.redirectState);
  if (storedUri !== null || storedState !== null) {
    removeStored(STORAGE_KEYS.redirectUri);
    removeStored(STORAGE_KEYS.redirectState);
  }
  if (storedUri !== null) return { uri: storedUri, state: storedState ?? '' };
  const query = readHandoffQuery(search);
  return query.redirectUri ? { uri: query.redirectUri, state: query.state } : null;
};

/** SPEC §4 step 3: a stored coupon_code is removed and used; otherwise the query's. */
export const takeCouponCode = (search: string): string | null => {
  const stored = readStored(STORAGE_KEYS.couponCode);
  if (stored !== null) {
    removeStored(STORAGE_KEYS.couponCode);
    return stored;
  }
  return readHandoffQuery(search).couponCode;
};

const withoutTrailingSlash = (pathname: string): string =>
  pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;

/**
 * SPEC §2.1: a user without preferred_username goes to /account; one with a handle who is on /
 * or /authentication goes to the profile. Null: stay where you are.
 */
export const routeAfterLoad = (user: CurrentUser, pathname: string): string | null => {
  const path = withoutTrailingSlash(pathname);
  const handle = user.attributes.preferred_username;
  if (!handle) return path === ROUTES.account ? null : ROUTES.account;
  if (path === ROUTES.home || path === ROUTES.authentication) return ROUTES.profile(encodeURIComponent(handle));
  return null;
};
