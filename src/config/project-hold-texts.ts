/**
 * One quote for a whole project (issue 21 item 6): the hold panel of the AI Story wizard ("This
 * film") and of an album ("This album"), word for word.
 */

/** The projects that hold credits (the server's credit_holds.project_kind). */
export type HoldProjectKind = 'story' | 'album';

/** A quote's line as the panel reads it (config never imports services' schemas). */
interface QuoteLine {
  part: 'elements' | 'scenes' | 'videos' | 'audio' | 'clips' | 'join';
  label?: string;
  count: number;
  total: number;
}

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

const LINE_NAMES: Readonly<Record<QuoteLine['part'], (line: QuoteLine) => string>> = {
  elements: ({ count }) => plural(count, 'element picture', 'element pictures'),
  scenes: ({ count }) => plural(count, 'scene picture', 'scene pictures'),
  videos: ({ count }) => plural(count, 'video', 'videos'),
  audio: () => 'sound',
  clips: ({ count, label }) => `${plural(count, 'clip', 'clips')}${label ? ` (${label})` : ''}`,
  join: () => 'joining',
};

/** What differs between a film and an album. */
interface ProjectWords {
  heading: string;
  loading: string;
  loadFailed: string;
  /** "… = 176 credits (joining is free)". */
  summary: (lines: readonly string[], total: number) => string;
  nothingLeft: string;
  /** Why holding is offered but never required. */
  why: string;
  held: (remaining: number, drawn: number) => string;
}

export const PROJECT_HOLD_WORDS: Readonly<Record<HoldProjectKind, ProjectWords>> = {
  story: {
    heading: 'This film',
    loading: 'Pricing the whole film…',
    loadFailed: 'The film could not be priced.',
    /** "This film: 12 scene pictures 48 · 12 videos 120 · sound 8 = 176 credits (joining is free)". */
    summary: (lines, total) => `${lines.join(' · ')} = ${total} credits (joining is free)`,
    nothingLeft: 'Everything in this film is made and up to date.',
    why: 'Holding sets the whole price aside now, so the film is never left half-made for lack of credits. You can also go on without holding: each step is then paid when it starts.',
    held: (remaining, drawn) => `${remaining} credits held for this film (${drawn} spent from the hold so far). Its parts are paid from the hold.`,
  },
  album: {
    heading: 'This album',
    loading: 'Pricing the whole album…',
    loadFailed: 'The album could not be priced.',
    /** "This album: 2 clips (Parallax) 40 · joining free = 40 credits". */
    summary: (lines, total) => `${lines.join(' · ')} = ${total} credits`,
    nothingLeft: 'Nothing left to pay for: every clip of this album is made, and joining is free.',
    why: 'Holding sets the whole price aside now, so the album is never left half-made for lack of credits. You can also go on without holding: the clips are then paid when they are made.',
    held: (remaining, drawn) => `${remaining} credits held for this album (${drawn} spent from the hold so far). Its clips are paid from the hold.`,
  },
};

export const PROJECT_HOLD_TEXTS = {
  retry: 'Try again',
  dismiss: 'Dismiss',
  /** "12 scene pictures 48", "2 clips (Parallax) 40", "joining free". */
  line: (line: QuoteLine): string => `${LINE_NAMES[line.part](line)} ${line.total === 0 ? 'free' : line.total}`,
  hold: (cost: number): string => `Hold ${cost} credits and start`,
  holding: 'Holding…',
  requote: (cost: number): string => `Hold ${cost} credits for what is left`,
  release: 'Release',
  releasing: 'Releasing…',
  released: 'The hold was released: its credits are back in your balance.',
  releaseFailed: (reason: string): string => `The hold could not be released: ${reason}`,
  holdFailed: (reason: string): string => `The credits could not be held: ${reason}`,
} as const;

/** A paid step's cost line while the project holds credits: it is paid from the hold. */
export const fromHoldText = (remaining: number): string => ` · from the hold (${remaining} left)`;
