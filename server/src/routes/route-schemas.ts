import type { FastifyError, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Zod route schemas (fastify-type-provider-zod): Fastify checks a route's params and query with
 * these before its handler runs, and the handler's `request` is typed from them. A check whose
 * answer SPEC orders after sign-in (a 401 first, then a 404 for someone else's item, then the
 * body's 400) stays in the handler — a route schema would answer before any of those.
 */

/** `/…/:id` routes. */
export const idParams = z.object({ id: z.string() });

/**
 * The paid calls' query. asset_id is checked after sign-in by requireOwnAssetId (SPEC §8's
 * message for an asset that is not the caller's); the other keys are kept, because the
 * Idempotency-Key's request digest covers the whole query.
 */
export const paidCallQuery = z.looseObject({ asset_id: z.union([z.string(), z.array(z.string())]).optional() });

/** A paid call's request as its handler sees it. */
export type PaidCallRequest = FastifyRequest<{ Querystring: z.infer<typeof paidCallQuery> }>;

/** What a failed route schema names, as parseInput names a failed body or query. */
const VALIDATION_SUBJECTS: Readonly<Record<string, string>> = {
  body: 'Request body',
  querystring: 'Query',
  params: 'Path',
  headers: 'Headers',
};

/** A route schema's failure as `{ detail }` (the same wording as parseInput's), or null for any other error. */
export function routeSchemaDetail(error: FastifyError): string | null {
  if (!hasZodFastifySchemaValidationErrors(error)) return null;
  const what = VALIDATION_SUBJECTS[error.validationContext ?? 'body'] ?? 'Request';
  const issues = error.validation.map((issue) => {
    const path = issue.instancePath.split('/').filter((part) => part !== '').join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  return `${what} is invalid: ${issues.join('; ')}`;
}
