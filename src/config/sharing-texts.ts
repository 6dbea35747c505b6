import type { Visibility } from '@/config/sharing';
import { formatDate } from '@/lib/format';

/**
 * Texts of the sharing pages (issue 7, SPEC §1 / §2.8): the public profile, the Latest page, one
 * shared item, the sharing form on a finished result and the home page's promo reel. SPEC gives
 * none of them word for word.
 */

export const SHARING_TEXTS = {
  date: formatDate,
  listing: {
    search: 'Search',
    searchPlaceholder: 'Title, description or prompt',
    loadMore: 'Load more',
    loadingMore: 'Loading more…',
    loading: 'Loading shared results…',
    empty: 'Nothing shared yet.',
    noResults: (keyword: string): string => `No results for "${keyword}".`,
    failed: 'The shared results could not be loaded.',
    moreFailed: 'More results could not be loaded.',
    retry: 'Try again',
    sharedOn: (iso: string): string => `Shared ${formatDate(iso)}`,
    by: 'by',
    ownerLink: (handle: string): string => `@${handle}`,
    unknownOwner: 'someone',
    untitled: 'Untitled',
    open: (title: string): string => `Open ${title}`,
    itemsHeading: 'Shared results',
  },
  profile: {
    heading: (handle: string): string => `@${handle}`,
    intro: (handle: string): string => `What @${handle} made and shared on Kinora.`,
    loading: 'Loading the profile…',
    notFound: 'This profile does not exist.',
    notFoundHint: 'Check the handle, or see what people shared lately.',
    failed: 'The profile could not be loaded.',
    empty: 'Nothing shared yet.',
    /** The next step under an empty profile (issue 17): the owner's, then a visitor's. */
    emptyOwnHint: 'Make a picture or a video with one of the tools, then choose Share on its result: it shows here.',
    emptyOwnLink: 'Make something',
    emptyOtherHint: (handle: string): string => `When @${handle} shares something, it shows here.`,
  },
  latest: {
    heading: 'Latest',
    intro: 'What people made and shared on Kinora, newest first.',
    link: 'See the latest',
  },
  shared: {
    loading: 'Loading…',
    notFound: 'This result does not exist or is no longer shared.',
    failed: 'This result could not be loaded.',
    noFile: 'This result has no file to show.',
    by: 'Shared by',
    ownerBack: 'You shared this. See it with your other results',
    ownerProfile: 'Your profile',
    unlisted: 'Unlisted: only people with the link can see it.',
    latestLink: 'See what others shared',
  },
  share: {
    button: 'Share',
    buttonFor: (label: string): string => `Share ${label}`,
    modalTitle: 'Share this result',
    title: 'Title',
    titleRequired: 'Give it a title.',
    titleTooLong: (max: number): string => `At most ${max} characters.`,
    description: 'Description',
    descriptionTooLong: (max: number): string => `At most ${max} characters.`,
    counter: (length: number, max: number): string => `${length} / ${max}`,
    visibility: 'Who can see it',
    save: 'Save',
    saving: 'Saving…',
    cancel: 'Cancel',
    close: 'Close',
    editAgain: 'Change sharing',
    savedTitle: 'Saved.',
    link: 'Link',
    copy: 'Copy link',
    copied: 'Copied',
    where: {
      public: 'It now appears on your profile and on the Latest page; anyone with the link can open it.',
      unlisted: 'It does not appear on your profile or the Latest page; anyone with the link can open it.',
      private: 'It is private again: only you can see it, and the link no longer opens it for others.',
    } satisfies Record<Visibility, string>,
    failedTitle: 'Could not save the sharing settings',
    badge: { public: 'Public', unlisted: 'Unlisted', private: 'Private' } satisfies Record<Visibility, string>,
    badgeLabel: (label: string): string => `Visibility: ${label}`,
  },
  promo: {
    heading: 'See what people made',
    intro: 'Short films made with Kinora.',
    loading: 'Loading the videos…',
    failed: 'The videos could not be loaded.',
    retry: 'Try again',
  },
} as const;
