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
  // Credits and payments (issue 7).
  creditPackNotFound: 'This credit pack does not exist.',
  checkoutNotFound: 'This checkout does not exist.',
  unknownAutoRefillOption: 'Unknown auto-refill option.',
  autoRefillNeedsCard: 'Add a card first: buy a credit pack once and the card is kept for auto-refill.',
  paymentNotFound: 'This payment does not exist.',
  historyCursorInvalid: 'next_start_keys is not a key this call gave out.',
  webhookSignatureInvalid: 'The Kinora-Signature header is missing or wrong.',
  webhookBodyInvalid: 'The webhook body must be {"type": "checkout.completed", "session_id": "…"}.',
  // A real card provider (issue 20 item 4).
  cardProviderUnavailable: 'The card provider could not be reached. Try again later.',
  stripeSignatureInvalid: 'The Stripe-Signature header is missing or wrong.',
  // Sharing, public content and assets (issue 7).
  shareNeedsResult: 'Only a finished result can be shared.',
  badContentCursor: 'next_start_keys is not a cursor this listing gave out.',
  assetNotFound: 'Failed to find an asset with this id.',
  assetUnknownForJob: 'This asset does not exist.',
  assetMediaUnknown: (ids: readonly string[]): string => `media_ids names media you do not have: ${ids.join(', ')}.`,
  tooManyAssets: (max: number): string => `You can keep at most ${max} assets; delete one first.`,
  // Organisations (issue 7).
  customerNotFound: 'Failed to find an organisation with this id.',
  customerOwnerOnly: "Only the organisation's owner can do this.",
  customerAccountUnknown: 'No Kinora account has this e-mail or handle.',
  customerOwnedAlready: 'You own this organisation already.',
  customerMemberAlready: 'This person is already a member.',
  customerMemberNotFound: 'This person is not a member of the organisation.',
  customerMembersFull: (max: number): string => `An organisation can have at most ${max} members.`,
  customerGuestCannotJoin: 'The shared guest account cannot be a member of an organisation.',
  customerGuestCannotOwn: 'The shared guest account cannot create an organisation.',
  transferKeyRequired: 'Send an Idempotency-Key header so a retried transfer is not made twice.',
  customerCreditsShort: (balance: number, credits: number): string =>
    `The organisation has ${balance} credits; it cannot transfer ${credits}.`,
  ownsFundedCustomer: (name: string, balance: number): string =>
    `Your organisation "${name}" still has ${balance} credits. Transfer them to its members before you delete your account.`,
  // Input hardening (issue 17).
  controlCharacter: (where: string): string =>
    `${where} contains a control character (such as NUL); only tabs and line breaks are accepted in text.`,
  nestedTooDeep: (max: number): string => `The request body is nested too deeply: at most ${max} levels are accepted.`,
} as const;
