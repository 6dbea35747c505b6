import type { Env } from '@/config/env';
import type { SessionInput } from '@/machines/session/session.machine';

/**
 * What the session machine starts with: where the app opened, the sign-in settings of the env, and
 * whether the person is surely a visitor (main.tsx: nothing stored says otherwise; the prerendered
 * pages are a visitor's).
 */
export const sessionInputFrom = (
  env: Pick<Env, 'authFlowType' | 'guestPassword' | 'redirectAllowlist' | 'socialProviders'>,
  location: { pathname: string; search: string },
  visitor = false,
): SessionInput => ({
  location: { pathname: location.pathname, search: location.search },
  authFlowType: env.authFlowType,
  guestPassword: env.guestPassword,
  redirectAllowlist: env.redirectAllowlist,
  socialProviders: env.socialProviders,
  visitor,
});
