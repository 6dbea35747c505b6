import { assign, setup } from 'xstate';

/**
 * Comparing two picture results side by side (issue 21 item 7): the person marks two pictures of a
 * results list ("Compare"), opens the compare view and moves the split between them (drag, or the
 * arrow keys on the slider), or shows them as two panes. A list's pictures are named by their
 * lightbox ids (`lightboxPictureId`); this machine keeps only which two are chosen and how the
 * view is set, the screen finds the pictures themselves.
 *
 * choosing (0–2 marked) ⇄ comparing (exactly two, the view open). Marking a third while two are
 * marked is refused (the screen disables it), so a choice is never dropped behind the person's back.
 */

export const COMPARE_MAX = 2;
/** Where the split starts (percent of the width shown of the first picture). */
export const COMPARE_SPLIT_START = 50;

export type CompareMode = 'slider' | 'panes';

export interface ResultCompareContext {
  /** The marked pictures' ids, in the order they were marked (the first is shown on the left). */
  selected: string[];
  /** 0–100: how much of the width shows the first picture in the slider view. */
  split: number;
  mode: CompareMode;
}

export type ResultCompareEvent =
  | { type: 'compare.toggle'; id: string }
  | { type: 'compare.clear' }
  | { type: 'compare.open' }
  | { type: 'compare.close' }
  | { type: 'compare.split'; position: number }
  | { type: 'compare.nudge'; by: number }
  | { type: 'compare.mode'; mode: CompareMode }
  /** The list changed (a refresh, a deleted result): marked pictures no longer in it are unmarked. */
  | { type: 'compare.retain'; ids: readonly string[] };

const clampSplit = (value: number): number => (Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : COMPARE_SPLIT_START);

export const resultCompareMachine = setup({
  types: {
    context: {} as ResultCompareContext,
    events: {} as ResultCompareEvent,
  },
  guards: {
    /** Unmarking always works; marking only while fewer than two are marked. */
    canToggle: ({ context }, params: { id: string }) => context.selected.includes(params.id) || context.selected.length < COMPARE_MAX,
    hasPair: ({ context }) => context.selected.length === COMPARE_MAX,
    pairLost: ({ context }, params: { ids: readonly string[] }) => context.selected.filter((id) => params.ids.includes(id)).length < COMPARE_MAX,
  },
  actions: {
    toggle: assign(({ context }, params: { id: string }) => ({
      selected: context.selected.includes(params.id) ? context.selected.filter((id) => id !== params.id) : [...context.selected, params.id],
    })),
    clear: assign({ selected: () => [] }),
    resetView: assign({ split: () => COMPARE_SPLIT_START }),
    setSplit: assign((_, params: { position: number }) => ({ split: clampSplit(params.position) })),
    nudgeSplit: assign(({ context }, params: { by: number }) => ({ split: clampSplit(context.split + params.by) })),
    setMode: assign((_, params: { mode: CompareMode }) => ({ mode: params.mode })),
    retain: assign(({ context }, params: { ids: readonly string[] }) => ({ selected: context.selected.filter((id) => params.ids.includes(id)) })),
  },
}).createMachine({
  id: 'resultCompare',
  context: { selected: [], split: COMPARE_SPLIT_START, mode: 'slider' },
  initial: 'choosing',
  on: {
    'compare.retain': [
      {
        guard: { type: 'pairLost', params: ({ event }) => ({ ids: event.ids }) },
        target: '.choosing',
        actions: { type: 'retain', params: ({ event }) => ({ ids: event.ids }) },
      },
      { actions: { type: 'retain', params: ({ event }) => ({ ids: event.ids }) } },
    ],
  },
  states: {
    choosing: {
      on: {
        'compare.toggle': {
          guard: { type: 'canToggle', params: ({ event }) => ({ id: event.id }) },
          actions: { type: 'toggle', params: ({ event }) => ({ id: event.id }) },
        },
        'compare.clear': { actions: 'clear' },
        'compare.open': { guard: 'hasPair', target: 'comparing', actions: 'resetView' },
      },
    },
    comparing: {
      on: {
        'compare.close': { target: 'choosing' },
        'compare.split': { actions: { type: 'setSplit', params: ({ event }) => ({ position: event.position }) } },
        'compare.nudge': { actions: { type: 'nudgeSplit', params: ({ event }) => ({ by: event.by }) } },
        'compare.mode': { actions: { type: 'setMode', params: ({ event }) => ({ mode: event.mode }) } },
      },
    },
  },
});
