import { loadEnv } from './env';

/** Used when the environment cannot be read (it is validated at start, so only in odd test set-ups). */
const FALLBACK_SUPPORT_EMAIL = 'support@kinora.app';

let cached: string | undefined;

/** SPEC §1: the support e-mail address {email} shown to users (VITE_SUPPORT_EMAIL). */
export function supportEmail(): string {
  if (cached) return cached;
  try {
    cached = loadEnv().supportEmail;
  } catch {
    cached = FALLBACK_SUPPORT_EMAIL;
  }
  return cached;
}
