import { contentPageSchema } from '@/services/schemas/content';
import type { ContentPage, ContentQuery } from '@/services/schemas/content';
import { apiPostJson } from '@/services/http';

/**
 * POST users/{id}/contents: a person's shared content, searchable and paged by next_start_keys.
 * Works signed out (the profile is public); signed in, the owner also sees their unlisted items.
 */
export const getUserContents = (id: string, query: ContentQuery = {}): Promise<ContentPage> =>
  apiPostJson(`users/${encodeURIComponent(id)}/contents`, query, contentPageSchema, { auth: 'optional' });

/** POST users/latest-contents: everyone's public content, newest first (a guest also sees the guests'). */
export const getLatestContents = (query: ContentQuery = {}): Promise<ContentPage> =>
  apiPostJson('users/latest-contents', query, contentPageSchema, { auth: 'optional' });
