import { z } from 'zod';

/**
 * Done alerts (issue 21 item 3; Kinora's additions to SPEC §7, README "Done alerts"): the Web Push
 * calls. Shared with the server (server/src/routes/push.ts), which validates its input with them.
 */

/** A push service's endpoint: an https URL (the Push API gives nothing else), kept sensibly short. */
const ENDPOINT_MAX = 2048;
/** RFC 8291 keys as the Push API's PushSubscription.toJSON() gives them: unpadded base64url. */
const base64Url = (what: string, min: number, max: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be base64url`)
    .min(min)
    .max(max);

export const pushEndpointSchema = z.url({ protocol: /^https$/ }).max(ENDPOINT_MAX);

/** POST push/subscriptions: the browser's PushSubscription.toJSON() (expirationTime is ignored). */
export const pushSubscriptionInputSchema = z.object({
  endpoint: pushEndpointSchema,
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    // The browser's P-256 public key, uncompressed (65 bytes → 87 characters).
    p256dh: base64Url('keys.p256dh', 80, 100),
    // The 16-byte authentication secret (→ 22 characters).
    auth: base64Url('keys.auth', 16, 32),
  }),
});

/** DELETE push/subscriptions?endpoint=…: which browser stops getting alerts. */
export const pushEndpointQuerySchema = z.object({ endpoint: pushEndpointSchema });

/** GET push/public-key: the server's VAPID public key (RFC 8292) and whether the person opted in. */
export const pushPublicKeySchema = z.object({
  public_key: z.string().min(1),
  enabled: z.boolean(),
});
export type PushPublicKey = z.infer<typeof pushPublicKeySchema>;

/** POST/DELETE push/subscriptions: the person's opt-in after the call. */
export const pushSettingsSchema = z.object({ enabled: z.boolean() });
export type PushSettings = z.infer<typeof pushSettingsSchema>;

/** POST push/test: how many of the person's subscriptions took the alert, and how many did not. */
export const pushTestResultSchema = z.object({
  sent: z.number().int().min(0),
  failed: z.number().int().min(0),
  /** Subscriptions the push service said are gone (404/410): deleted. */
  removed: z.number().int().min(0),
});
export type PushTestResult = z.infer<typeof pushTestResultSchema>;

/** What a push message carries (the service worker shows it; public/sw.js reads the same fields). */
export const pushAlertPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  /** The page to open, a path of this site. */
  url: z.string().startsWith('/'),
  /** Alerts with one tag replace each other (a job's, a story step's). */
  tag: z.string(),
});
export type PushAlertPayload = z.infer<typeof pushAlertPayloadSchema>;
