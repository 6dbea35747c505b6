import { z } from 'zod';

/** POST auth/check: sent with the client API key, never with user auth (SPEC §7 "Auth check"). */
export const authCheckRequestSchema = z.object({ email: z.email() });
export type AuthCheckRequest = z.infer<typeof authCheckRequestSchema>;

export const authCheckResponseSchema = z.object({ email: z.string(), exists: z.boolean() });
export type AuthCheckResponse = z.infer<typeof authCheckResponseSchema>;
