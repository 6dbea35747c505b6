/**
 * Kinora's own texts of the contextual help popover (SPEC §2.9 item 4). SPEC gives none of them
 * word for word; the topic titles and descriptions live in `help-topics.ts`.
 */
export const HELP_TEXTS = {
  /** The accessible name of a help button; tests find buttons by it, so the wording is fixed. */
  button: (title: string): string => `Help: ${title}`,
  previous: 'Previous help topic',
  next: 'Next help topic',
  close: 'Close help',
  loading: 'Loading the help topic…',
  /** Where the person is among the topics, e.g. "11 / 41". */
  position: (index: number, count: number): string => `${index + 1} / ${count}`,
  video: (title: string): string => `Tutorial: ${title}`,
} as const;
