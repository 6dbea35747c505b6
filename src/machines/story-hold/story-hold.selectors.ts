import type { SnapshotFrom } from 'xstate';
import { STORY_HOLD_TEXTS } from '@/config/story-hold-texts';
import type { storyHoldMachine } from '@/machines/story-hold/story-hold.machine';

type StoryHoldSnapshot = SnapshotFrom<typeof storyHoldMachine>;

/** What the hold panel shows. */
export interface StoryHoldView {
  state: 'loading' | 'failed' | 'ready' | 'placing' | 'releasing';
  /** "12 scene pictures 48 · 12 videos 120 · sound 8 = 176 credits (joining is free)", or null when nothing is left to make. */
  summary: string | null;
  /** What holding takes from the balance (0 for the Developer group). */
  cost: number;
  /** The open hold: what it still keeps and what the film's parts spent of it (null: nothing held). */
  heldRemaining: number | null;
  heldDrawn: number;
  canPlace: boolean;
  canRelease: boolean;
  error: string | null;
  notice: string | null;
}

export function selectStoryHoldView(snapshot: StoryHoldSnapshot): StoryHoldView {
  const { quote, error, notice } = snapshot.context;
  const hold = quote?.hold?.status === 'open' ? quote.hold : null;
  const lines = quote?.lines.map((line) => STORY_HOLD_TEXTS.line(line.part, line.count, line.total)) ?? [];
  return {
    state: snapshot.value as StoryHoldView['state'],
    summary: quote && quote.total > 0 ? STORY_HOLD_TEXTS.summary(lines, quote.total) : null,
    cost: quote?.cost ?? 0,
    heldRemaining: hold ? hold.remaining : null,
    heldDrawn: hold?.drawn ?? 0,
    canPlace: snapshot.can({ type: 'storyHold.place' }),
    canRelease: snapshot.can({ type: 'storyHold.release' }),
    error,
    notice,
  };
}

/** What the story's open hold still keeps for it (0 without one): the story's steps may spend it on top of the free balance. */
export const selectHeldForStory = (snapshot: StoryHoldSnapshot): number => {
  const hold = snapshot.context.quote?.hold;
  return hold?.status === 'open' ? hold.remaining : 0;
};
