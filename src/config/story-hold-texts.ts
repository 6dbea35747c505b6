import type { StoryQuotePart } from '@/lib/story-quote';

/** One quote for the whole film (issue 21 item 6): the AI Story wizard's hold panel, word for word. */

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

const LINE_NAMES: Readonly<Record<StoryQuotePart, (count: number) => string>> = {
  elements: (count) => plural(count, 'element picture', 'element pictures'),
  scenes: (count) => plural(count, 'scene picture', 'scene pictures'),
  videos: (count) => plural(count, 'video', 'videos'),
  audio: () => 'sound',
};

export const STORY_HOLD_TEXTS = {
  heading: 'This film',
  loading: 'Pricing the whole film…',
  loadFailed: 'The film could not be priced.',
  retry: 'Try again',
  line: (part: StoryQuotePart, count: number, total: number): string => `${LINE_NAMES[part](count)} ${total}`,
  /** "This film: 12 scene pictures 48 · 12 videos 120 · sound 8 = 176 credits (joining is free)". */
  summary: (lines: readonly string[], total: number): string => `${lines.join(' · ')} = ${total} credits (joining is free)`,
  nothingLeft: 'Everything in this film is made and up to date.',
  hold: (cost: number): string => `Hold ${cost} credits and start`,
  holding: 'Holding…',
  /** Why holding is offered but never required. */
  why: 'Holding sets the whole price aside now, so the film is never left half-made for lack of credits. You can also go on without holding: each step is then paid when it starts.',
  held: (remaining: number, drawn: number): string => `${remaining} credits held for this film (${drawn} spent from the hold so far). Its parts are paid from the hold.`,
  requote: (cost: number): string => `Hold ${cost} credits for what is left`,
  release: 'Release',
  releasing: 'Releasing…',
  released: 'The hold was released: its credits are back in your balance.',
  releaseFailed: (reason: string): string => `The hold could not be released: ${reason}`,
  holdFailed: (reason: string): string => `The credits could not be held: ${reason}`,
} as const;

/** A paid step's cost line while the film holds credits: it is paid from the hold. */
export const fromHoldText = (remaining: number): string => ` · from the hold (${remaining} left)`;
