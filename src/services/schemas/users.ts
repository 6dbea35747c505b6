import { z } from './zod-mini';
import { CONTACT_EMAIL_MAX, CONTACT_MESSAGE_MAX, CONTACT_MESSAGE_MIN, CONTACT_NAME_MAX } from '../../config/contact';
import { CONTACT_TEXTS } from '../../config/contact-texts';

/** GET users/{id}?type={type}: the public profile (SPEC §3 "User (API)"). */
export const publicUserSchema = z.object({ id: z.string(), preferred_username: z.nullable(z.string()) });
export type PublicUser = z.infer<typeof publicUserSchema>;

/** POST users/available-username. */
export const usernameAvailabilityRequestSchema = z.object({ preferred_username: z.string() });
export type UsernameAvailabilityRequest = z.infer<typeof usernameAvailabilityRequestSchema>;

export const usernameAvailabilitySchema = z.object({ preferred_username: z.string(), available: z.boolean() });
export type UsernameAvailability = z.infer<typeof usernameAvailabilitySchema>;

/** POST users/contact-us. SPEC §7 does not show the fields; these are Kinora's. */
/**
 * The contact form's own rules, which the server applies too (issue 17): name and message are
 * trimmed, the message needs CONTACT_MESSAGE_MIN characters, and a refusal reads as the form's.
 */
export const contactUsRequestSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, CONTACT_TEXTS.nameRequired), z.maxLength(CONTACT_NAME_MAX, CONTACT_TEXTS.nameTooLong)),
  email: z.email(CONTACT_TEXTS.emailInvalid).check(z.maxLength(CONTACT_EMAIL_MAX, CONTACT_TEXTS.emailTooLong)),
  message: z
    .string()
    .check(z.trim(), z.minLength(CONTACT_MESSAGE_MIN, CONTACT_TEXTS.messageTooShort), z.maxLength(CONTACT_MESSAGE_MAX, CONTACT_TEXTS.messageTooLong)),
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
