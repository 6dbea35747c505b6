import { authCheckResponseSchema } from '@/services/schemas/auth-check';
import type { AuthCheckRequest, AuthCheckResponse } from '@/services/schemas/auth-check';
import { apiPostJson } from '@/services/http';

/** POST auth/check: whether an account exists for this e-mail; client API key, no user auth. */
export const authCheck = (email: string): Promise<AuthCheckResponse> => {
  const body: AuthCheckRequest = { email };
  return apiPostJson('auth/check', body, authCheckResponseSchema, { auth: 'api-key-only' });
};
