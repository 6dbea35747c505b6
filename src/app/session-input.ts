import type { Env } from '@/config/env';
import type { SessionInput } from '@/machines/session/session.machine';

/** What the session machine starts with: where the app opened and the sign-in settings of the env. */
export const sessionInputFrom = (
  env: Pick<Env, 'authFlowType' | 'guestPassword' | 'redirectAllowlist' | 'socialProviders'>,
  location: { pathname: string; search: string },
): SessionInput => ({
  location: { pathname: location.pathname, search: location.search },
  authFlowType: env.authFlowType,
  guestPassword: env.guestPassword,
  redirectAllowlist: env.redirectAllowlist,
  socialProviders: env.socialProviders,
});
