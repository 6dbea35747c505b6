/**
 * The sharing form (SPEC §2.8: title, description, visibility; SPEC leaves the values open) and the
 * public content listings (SPEC §7 users/{id}/contents, users/latest-contents).
 */

export const VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const VISIBILITY_OPTIONS: readonly { value: Visibility; label: string; description: string }[] = [
  { value: 'public', label: 'Public', description: 'On your profile and the Latest page; anyone can find it.' },
  { value: 'unlisted', label: 'Unlisted', description: 'Only people with the link can see it.' },
  { value: 'private', label: 'Private', description: 'Only you can see it.' },
];

export const SHARE_TITLE_MAX = 100;
export const SHARE_DESCRIPTION_MAX = 1000;
/** Items per page of a content listing (SPEC §9 names 20 among its numbers). */
export const CONTENT_PAGE_SIZE = 20;
export const CONTENT_KEYWORD_MAX = 100;
