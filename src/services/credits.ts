import { userCreditsSchema } from '@/services/schemas/credits';
import type { UserCredits } from '@/services/schemas/credits';
import { apiGet } from '@/services/http';

/**
 * GET credits/get for the signed-in user. SPEC §7 retries it up to 2 extra times on failure;
 * that retry lives in the machine that invokes this fetcher, so each attempt stays one call.
 * Buying, auto-refill and the history are in `@/services/payments`.
 */
export const getCredits = (): Promise<UserCredits> => apiGet('credits/get', userCreditsSchema);
