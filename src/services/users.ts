import {
  contactUsResponseSchema,
  deleteAccountResponseSchema,
  publicUserSchema,
  uploadedUserFileSchema,
  usernameAvailabilitySchema,
} from '@/services/schemas/users';
import type {
  ContactUsRequest,
  ContactUsResponse,
  DeleteAccountResponse,
  PublicUser,
  UploadedUserFile,
  UserFileUpload,
  UsernameAvailabilityRequest,
  UsernameAvailability,
} from '@/services/schemas/users';
import { apiDelete, apiGet, apiPostJson } from '@/services/http';

/** GET users/{id}?type={type}: a public profile, fetched without user auth (SPEC §6). */
export const getUser = (id: string, type?: string): Promise<PublicUser> =>
  apiGet(`users/${encodeURIComponent(id)}`, publicUserSchema, { auth: 'none', query: { type } });

/** POST users/available-username: the server decides whether a handle is free (SPEC §5). */
export const checkUsernameAvailable = (preferredUsername: string): Promise<UsernameAvailability> => {
  const body: UsernameAvailabilityRequest = { preferred_username: preferredUsername };
  return apiPostJson('users/available-username', body, usernameAvailabilitySchema);
};

/** DELETE users: deletes the signed-in user's own account. */
export const deleteAccount = (): Promise<DeleteAccountResponse> => apiDelete('users', deleteAccountResponseSchema);

/** POST users/contact-us: works signed out too; a signed-in sender's token links the message to them. */
export const contactUs = (message: ContactUsRequest): Promise<ContactUsResponse> =>
  apiPostJson('users/contact-us', message, contactUsResponseSchema, { auth: 'optional' });

/** POST users/me/file (JSON, SPEC §7). */
export const uploadUserFile = (file: UserFileUpload): Promise<UploadedUserFile> =>
  apiPostJson('users/me/file', file, uploadedUserFileSchema);

