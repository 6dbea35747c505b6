import type { SnapshotFrom } from 'xstate';
import { PROJECT_HOLD_TEXTS, PROJECT_HOLD_WORDS } from '@/config/project-hold-texts';
import { heldOf, type projectHoldMachine } from '@/machines/project-hold/project-hold.machine';

type ProjectHoldSnapshot = SnapshotFrom<typeof projectHoldMachine>;

/** What the hold panel shows. */
export interface ProjectHoldView {
  state: 'loading' | 'failed' | 'ready' | 'placing' | 'releasing';
  /** "12 scene pictures 48 · 12 videos 120 · sound 8 = 176 credits (joining is free)", or null when nothing is left to make. */
  summary: string | null;
  /** What holding takes from the balance (0 for the Developer group). */
  cost: number;
  /** The open hold: what it still keeps and what the project's parts spent of it (null: nothing held). */
  heldRemaining: number | null;
  heldDrawn: number;
  canPlace: boolean;
  canRelease: boolean;
  error: string | null;
  notice: string | null;
}

export function selectProjectHoldView(snapshot: ProjectHoldSnapshot): ProjectHoldView {
  const { quote, error, notice, project } = snapshot.context;
  const hold = quote?.hold?.status === 'open' ? quote.hold : null;
  const lines = quote?.lines.map((line) => PROJECT_HOLD_TEXTS.line(line)) ?? [];
  return {
    state: snapshot.value as ProjectHoldView['state'],
    summary: quote && quote.total > 0 ? PROJECT_HOLD_WORDS[project.kind].summary(lines, quote.total) : null,
    cost: quote?.cost ?? 0,
    heldRemaining: hold ? hold.remaining : null,
    heldDrawn: hold?.drawn ?? 0,
    canPlace: snapshot.can({ type: 'hold.place' }),
    canRelease: snapshot.can({ type: 'hold.release' }),
    error,
    notice,
  };
}

/** What the project's open hold still keeps for it (0 without one): its parts may spend it on top of the free balance. */
export const selectHeld = (snapshot: ProjectHoldSnapshot): number => heldOf(snapshot.context.quote);
