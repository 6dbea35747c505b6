import { MESSAGES } from '@/config/messages';
import { JOB_SUBMIT_RETRY_STATUSES } from '@/config/limits';

/**
 * `http`: the server answered with a failure; `network`: no answer at all (offline, time-out,
 * aborted); `auth`: stopped before sending because there is no signed-in user or session;
 * `parse`: the answer did not match its schema.
 */
export type ApiErrorKind = 'http' | 'network' | 'auth' | 'parse';

/**
 * The one error type of the services layer. Its own module so that auth.ts and http.ts can both
 * raise it without importing each other.
 */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status when the server answered; undefined otherwise. */
  readonly status: number | undefined;

  constructor(message: string, options: { kind: ApiErrorKind; status?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.kind = options.kind;
    this.status = options.status;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/**
 * What a failed call says to the person: the error's own message (for an ApiError, the server's
 * `detail`, SPEC §8), else `fallback`. The one reading of an error used by every machine.
 */
export const errorMessageOf = (error: unknown, fallback: string = MESSAGES.apiError): string =>
  error instanceof Error && error.message.trim() !== '' ? error.message : fallback;

/** The HTTP status of a failed call, when the server answered; undefined otherwise. */
export const statusOf = (error: unknown): number | undefined => (isApiError(error) ? error.status : undefined);

/** No answer at all: offline, timed out or aborted. */
export const isNetworkFailure = (error: unknown): boolean => isApiError(error) && error.kind === 'network';

/**
 * A paid submit worth sending again with the same idempotency key: no answer, or one of
 * JOB_SUBMIT_RETRY_STATUSES (the first request with this key still running, a gateway failure).
 */
export const isRetryableSubmit = (error: unknown): boolean =>
  isNetworkFailure(error) || JOB_SUBMIT_RETRY_STATUSES.includes(statusOf(error) ?? 0);

/** Any call worth sending again: what isRetryableSubmit allows, or any server failure (5xx). */
export const isRetryable = (error: unknown): boolean => isRetryableSubmit(error) || (statusOf(error) ?? 0) >= 500;
