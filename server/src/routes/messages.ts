import { MESSAGES } from '../../../src/config/messages.ts';

/**
 * The `detail` texts the API answers with. The one SPEC §8 gives word for word comes from the
 * app's messages module so both sides stay identical.
 */
export const NOT_AUTHENTICATED = MESSAGES.notAuthenticated;

/** What a file of each media kind is called in a detail ("video_url is not a video."). */
const KIND_NOUNS: Readonly<Record<string, string>> = { image: 'a picture', video: 'a video', audio: 'an audio file' };

export const DETAILS = {
  notFound: 'Not found.',
  internal: 'Something went wrong on the server. Please try again.',
  invalidApiKey: 'The X-Api-Key header is missing or wrong.',
  couponNotFound: 'This coupon code does not exist or is no longer active.',
  couponAlreadyRedeemed: 'You have already redeemed this coupon.',
  couponExhausted: 'This coupon has been redeemed the maximum number of times.',
  userNotFound: 'User not found.',
  accountDeleteFailed: 'The account could not be deleted. Please try again.',
  guestAccountProtected: 'The shared guest account cannot be deleted.',
  badRequest: 'The request could not be read.',
  // Media, jobs and files (issue 4).
  notEnoughCredits: (cost: number, balance: number): string =>
    `Not enough credits: this costs ${cost} credits and you have ${balance}.`,
  idempotencyMismatch: 'This Idempotency-Key was used with a different request.',
  idempotencyInProgress: 'A request with this Idempotency-Key is still being processed.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 1 to 200 visible characters.',
  jobAlreadyEnded: 'This job has already ended.',
  fileLinkInvalid: 'This file link is invalid or has expired.',
  notAKinoraFile: (field: string): string => `${field} is not a file uploaded to Kinora.`,
  notAPicture: (field: string): string => `${field} is not a picture.`,
  notOfKind: (field: string, kind: string): string => `${field} is not ${KIND_NOUNS[kind] ?? `a ${kind} file`}.`,
  fileTooLarge: (what: string, megabytes: number): string => `The file is too large: ${what} can be at most ${megabytes} MB.`,
  fileTypeRefused: (kind: string, reason: string): string => `This file type is not accepted for ${kind} uploads: ${reason}`,
  notMultipart: 'Send this call as multipart/form-data.',
  noFilesHere: 'This call takes picture URLs, not files.',
  unexpectedFile: (field: string, accepted: readonly string[]): string =>
    `This call takes a file only as ${accepted.join(' or ')}, not as ${field}.`,
  oneFileOnly: 'Send one file per call.',
  fieldTooLong: (field: string, max: number): string => `${field} can be at most ${max} characters.`,
  tooManyFields: (max: number): string => `Send at most ${max} fields.`,
  sentOnce: (field: string): string => `${field} must be sent once.`,
  badFieldName: (field: string): string => `"${field}" is not a field name this call takes (letters, digits and _ only).`,
  unknownTool: (tool: string): string => `"${tool}" is not a Kinora tool.`,
  badLink: (field: string): string => `${field} must be a Kinora file link or an http(s) URL of at most 2048 characters.`,
  jobStillRunning: 'This job is still running; it cannot be edited.',
  tooManySyncWaits: 'Too many requests are waiting for their result.',
  videoNotDescribed: 'Guess from picture needs a picture; videos are not described yet.',
  unknownModel: (option: string, tool: string): string => `"${option}" is not an available model for ${tool}.`,
} as const;
