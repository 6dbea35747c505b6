import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { PROJECT_HOLD_TEXTS } from '@/config/project-hold-texts';
import { projectHoldMachine, type HoldProjectRef, type ProjectQuoteAnswer } from '@/machines/project-hold/project-hold.machine';
import { selectHeld, selectProjectHoldView } from '@/machines/project-hold/project-hold.selectors';
import { ApiError } from '@/services/api-error';

/**
 * One quote for the whole film (issue 21 item 6): the story's price priced on start, held in one
 * call (each click its own Idempotency-Key), refused with the server's words, re-quoted when what
 * is left costs more than the hold keeps, released, and priced again on request.
 */

const LINES: ProjectQuoteAnswer['lines'] = [
  { part: 'elements', count: 3, each: 4, total: 12 },
  { part: 'scenes', count: 2, each: 4, total: 8 },
  { part: 'videos', count: 2, each: 20, total: 40 },
  { part: 'audio', count: 1, each: 8, total: 8 },
];
const STORY: HoldProjectRef = { kind: 'story', id: 'st-1' };
const QUOTE: ProjectQuoteAnswer = { lines: LINES, total: 68, cost: 68, hold: null, balance: 100 };
const HELD: ProjectQuoteAnswer = {
  ...QUOTE,
  hold: { id: 'h-1', amount: 68, drawn: 0, remaining: 68, status: 'open', close_reason: null },
  balance: 32,
};

interface Calls {
  projects: HoldProjectRef[];
  quote: number;
  hold: string[];
  release: number;
}

function startHold(
  answers: { quote?: () => Promise<ProjectQuoteAnswer>; hold?: () => Promise<ProjectQuoteAnswer>; release?: () => Promise<ProjectQuoteAnswer> } = {},
  project: HoldProjectRef = STORY,
) {
  const calls: Calls = { quote: 0, hold: [], release: 0, projects: [] };
  const machine = projectHoldMachine.provide({
    actors: {
      quote: fromPromise<ProjectQuoteAnswer, { project: HoldProjectRef }>(({ input }) => {
        calls.quote += 1;
        calls.projects.push(input.project);
        return (answers.quote ?? (async () => QUOTE))();
      }),
      hold: fromPromise<ProjectQuoteAnswer, { project: HoldProjectRef; idempotencyKey: string }>(({ input }) => {
        calls.hold.push(input.idempotencyKey);
        return (answers.hold ?? (async () => HELD))();
      }),
      release: fromPromise<ProjectQuoteAnswer, { project: HoldProjectRef }>(() => {
        calls.release += 1;
        return (answers.release ?? (async () => ({ ...QUOTE, hold: { ...(HELD.hold as NonNullable<ProjectQuoteAnswer['hold']>), status: 'closed', close_reason: 'released' } })))();
      }),
    },
  });
  const actor = createActor(machine, { input: { project } }).start();
  const changes: string[] = [];
  actor.on('hold.changed', (event) => changes.push(event.type));
  return { actor, calls, changes };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a project hold (the story’s, an album’s)', () => {
  it('prices the whole film on start and offers to hold it', async () => {
    const { actor, calls } = startHold();
    expect(selectProjectHoldView(actor.getSnapshot())).toMatchObject({ state: 'loading', summary: null, canPlace: false });
    await flush();
    expect(calls.quote).toBe(1);
    expect(selectProjectHoldView(actor.getSnapshot())).toEqual({
      state: 'ready',
      summary: '3 element pictures 12 · 2 scene pictures 8 · 2 videos 40 · sound 8 = 68 credits (joining is free)',
      cost: 68,
      heldRemaining: null,
      heldDrawn: 0,
      canPlace: true,
      canRelease: false,
      error: null,
      notice: null,
    });
    expect(selectHeld(actor.getSnapshot())).toBe(0);
  });

  it('holds in one call with a fresh key per click, tells the page, and then offers Release instead', async () => {
    const { actor, calls, changes } = startHold();
    await flush();
    actor.send({ type: 'hold.place' });
    expect(actor.getSnapshot().value).toBe('placing');
    // A second click while it runs sends nothing more.
    actor.send({ type: 'hold.place' });
    await flush();
    expect(calls.hold).toHaveLength(1);
    expect(changes).toEqual(['hold.changed']);
    const view = selectProjectHoldView(actor.getSnapshot());
    expect(view).toMatchObject({ state: 'ready', heldRemaining: 68, heldDrawn: 0, canPlace: false, canRelease: true });
    expect(selectHeld(actor.getSnapshot())).toBe(68);
    expect(actor.getSnapshot().context.idempotencyKey).toBeNull();
  });

  it('shows the server’s refusal (402) and holds nothing; the next click is a new key', async () => {
    let refuse = true;
    const { actor, calls, changes } = startHold({
      hold: async () => {
        if (refuse) throw new ApiError('Not enough credits: this costs 68 credits and you have 20.', { kind: 'http', status: 402 });
        return HELD;
      },
    });
    await flush();
    actor.send({ type: 'hold.place' });
    await flush();
    expect(selectProjectHoldView(actor.getSnapshot())).toMatchObject({
      state: 'ready',
      heldRemaining: null,
      canPlace: true,
      error: PROJECT_HOLD_TEXTS.holdFailed('Not enough credits: this costs 68 credits and you have 20.'),
    });
    expect(changes).toEqual([]);
    actor.send({ type: 'hold.dismiss' });
    expect(selectProjectHoldView(actor.getSnapshot()).error).toBeNull();
    refuse = false;
    actor.send({ type: 'hold.place' });
    await flush();
    expect(calls.hold).toHaveLength(2);
    expect(calls.hold[0]).not.toBe(calls.hold[1]);
    expect(selectHeld(actor.getSnapshot())).toBe(68);
  });

  it('offers to hold again only when what is left costs more than the hold keeps', async () => {
    const drawn = { ...HELD, total: 56, cost: 56, hold: { ...(HELD.hold as NonNullable<ProjectQuoteAnswer['hold']>), drawn: 12, remaining: 56 } };
    const grown = { ...drawn, total: 76, cost: 76 };
    let answer = drawn;
    const { actor } = startHold({ quote: async () => answer });
    await flush();
    expect(selectProjectHoldView(actor.getSnapshot())).toMatchObject({ heldRemaining: 56, heldDrawn: 12, canPlace: false, canRelease: true });
    answer = grown;
    actor.send({ type: 'hold.refresh' });
    await flush();
    expect(selectProjectHoldView(actor.getSnapshot())).toMatchObject({ canPlace: true, cost: 76 });
  });

  it('releases: the hold is gone, the page is told, and a notice says the credits are back', async () => {
    const { actor, calls, changes } = startHold({ quote: async () => HELD });
    await flush();
    actor.send({ type: 'hold.release' });
    expect(actor.getSnapshot().value).toBe('releasing');
    await flush();
    expect(calls.release).toBe(1);
    expect(changes).toEqual(['hold.changed']);
    expect(selectProjectHoldView(actor.getSnapshot())).toMatchObject({ state: 'ready', heldRemaining: null, canRelease: false, canPlace: true, notice: PROJECT_HOLD_TEXTS.released });
    expect(selectHeld(actor.getSnapshot())).toBe(0);
    // Nothing left to release.
    actor.send({ type: 'hold.release' });
    expect(actor.getSnapshot().value).toBe('ready');
  });

  it('says when a release fails and keeps the hold', async () => {
    const { actor } = startHold({
      quote: async () => HELD,
      release: async () => {
        throw new ApiError('This story holds no credits.', { kind: 'http', status: 404 });
      },
    });
    await flush();
    actor.send({ type: 'hold.release' });
    await flush();
    expect(selectProjectHoldView(actor.getSnapshot())).toMatchObject({ heldRemaining: 68, error: PROJECT_HOLD_TEXTS.releaseFailed('This story holds no credits.') });
  });

  it('offers nothing to hold when everything is made, and a retry when pricing failed', async () => {
    let fail = true;
    const { actor, calls } = startHold({
      quote: async () => {
        if (fail) throw new ApiError('Network Error', { kind: 'network' });
        return { ...QUOTE, lines: [], total: 0, cost: 0 };
      },
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    actor.send({ type: 'hold.place' });
    expect(actor.getSnapshot().value).toBe('failed');
    fail = false;
    actor.send({ type: 'hold.refresh' });
    await flush();
    expect(calls.quote).toBe(2);
    expect(selectProjectHoldView(actor.getSnapshot())).toMatchObject({ state: 'ready', summary: null, canPlace: false, canRelease: false });
  });

  it('prices an album in its own words: clips by model and the free join', async () => {
    const album: HoldProjectRef = { kind: 'album', id: 'al-1' };
    const lines: ProjectQuoteAnswer['lines'] = [
      { part: 'clips', label: 'Parallax', count: 2, each: 20, total: 40 },
      { part: 'join', count: 1, each: 0, total: 0 },
    ];
    const { actor, calls } = startHold({ quote: async () => ({ lines, total: 40, cost: 40, hold: null, balance: 100 }) }, album);
    await flush();
    expect(calls.projects).toEqual([album]);
    expect(selectProjectHoldView(actor.getSnapshot())).toMatchObject({
      state: 'ready',
      summary: '2 clips (Parallax) 40 · joining free = 40 credits',
      cost: 40,
      canPlace: true,
    });
  });
});
