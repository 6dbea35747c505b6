import { safeParse, type z } from 'zod';

/**
 * An error with the status and the `detail` the client should see (SPEC §7: on failure the
 * app shows `detail`). The app's error handler turns it into `{ detail }`.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

/** Every success answer is `{ data }` (SPEC §7 "Common rules"). */
export const ok = <T>(data: T): { data: T } => ({ data });

/** One line per problem: "email: Invalid email address; message: Too small: …". */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Parses a request body (or query) with a shared schema; a 400 with a readable detail otherwise. */
export function parseInput<S extends z.core.$ZodType>(schema: S, value: unknown, what = 'Request body'): z.output<S> {
  // As a function, so `zod/mini` schemas (shared with the web app's first page) parse too.
  const result = safeParse(schema, value);
  if (!result.success) throw new HttpError(400, `${what} is invalid: ${describeZodError(result.error)}`);
  return result.data;
}
