import { z } from './zod-mini';
import { CONTACT_EMAIL_MAX, CONTACT_MESSAGE_MAX, CONTACT_NAME_MAX } from '../../config/contact';

/** GET users/{id}?type={type}: the public profile (SPEC §3 "User (API)"). */
export const publicUserSchema = z.object({ id: z.string(), preferred_username: z.nullable(z.string()) });
export type PublicUser = z.infer<typeof publicUserSchema>;

/** POST users/available-username. */
export const usernameAvailabilityRequestSchema = z.object({ preferred_username: z.string() });
export type UsernameAvailabilityRequest = z.infer<typeof usernameAvailabilityRequestSchema>;

export const usernameAvailabilitySchema = z.object({ preferred_username: z.string(), available: z.boolean() });
export type UsernameAvailability = z.infer<typeof usernameAvailabilitySchema>;

/** POST users/contact-us. SPEC §7 does not show the fields; these are Kinora's. */
export const contactUsRequestSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(CONTACT_NAME_MAX)),
  email: z.email().check(z.maxLength(CONTACT_EMAIL_MAX)),
  // The form asks for CONTACT_MESSAGE_MIN characters; the API keeps accepting shorter ones.
  message: z.string().check(z.minLength(1), z.maxLength(CONTACT_MESSAGE_MAX)),
});
export type ContactUsRequest = z.infer<typeof contactUsRequestSchema>;

export const contactUsResponseSchema = z.object({ id: z.string() });
export type ContactUsResponse = z.infer<typeof contactUsResponseSchema>;

/** DELETE users: deletes the caller's own account. */
export const deleteAccountResponseSchema = z.object({ deleted: z.literal(true) });
export type DeleteAccountResponse = z.infer<typeof deleteAccountResponseSchema>;

/**
 * POST users/me/file: SPEC §7 sends it as JSON, so `blob` is the file's content as a string
 * (base64). The answer is not shown in SPEC; Kinora's server returns where the file now lives.
 */
export const userFileUploadSchema = z.object({
  filename: z.string().check(z.minLength(1)),
  type: z.string(),
  content_type: z.string(),
  blob: z.string(),
});
export type UserFileUpload = z.infer<typeof userFileUploadSchema>;

export const uploadedUserFileSchema = z.object({ url: z.string() });
export type UploadedUserFile = z.infer<typeof uploadedUserFileSchema>;
