import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { JOB_TEXTS, TOOL_TEXTS } from '@/config/job-texts';
import { JOB_REQUEST_TIMEOUT_MS } from '@/config/limits';
import { MESSAGES } from '@/config/messages';
import { PARALLAX_VIDEO_CREDITS } from '@/config/video-creation';
import { ALBUM_TEXTS } from '@/config/album-texts';
import type { BatchJobUpdate, EditBatchFields } from '@/services/batch';
import { batchMachine, BATCH_SUBMIT_RETRIES } from '@/machines/batch/batch.machine';
import type { Batch, BatchEmitted, BatchInput, GenerateRequest } from '@/machines/batch/batch.machine';
import { paidRequestWith } from '@/machines/paid-request/paid-request.machine';
import { projectHoldMachine, type HoldProjectRef, type ProjectQuoteAnswer } from '@/machines/project-hold/project-hold.machine';
import { selectAlbumView } from '@/machines/batch/batch.selectors';
import type { ScriptBoard } from '@/services/schemas/batch';
import { buildStatus } from '../../services/media.fixtures';
import { buildBatch, buildClip, buildClipVideo, buildFinishedVideo, TWO_CLIPS } from './batch.fixtures';
import { CREATOR, DEVELOPER, httpError, networkError } from '../generation-job/generation-job.fixtures';
import { paidChildOf } from '../../helpers/paid-child';

/** The album's calls, as mocks each test scripts. */
interface BatchServer {
  load: Mock<(id: string) => Promise<Batch>>;
  write: Mock<(id: string) => Promise<Batch>>;
  saveBoard: Mock<(id: string, board: ScriptBoard) => Promise<Batch>>;
  generate: Mock<(id: string, board: ScriptBoard, key: string) => Promise<Batch>>;
  poll: Mock<(ids: string[]) => Promise<BatchJobUpdate[]>>;
  saveEdit: Mock<(id: string, fields: EditBatchFields) => Promise<Batch>>;
  join: Mock<(id: string, fields: EditBatchFields) => Promise<Batch>>;
  remove: Mock<(id: string) => Promise<{ id: string; deleted: true }>>;
  /** The album's hold (its `albumHold` child): quote, hold, release. */
  quote: Mock<(project: HoldProjectRef) => Promise<ProjectQuoteAnswer>>;
  hold: Mock<(project: HoldProjectRef) => Promise<ProjectQuoteAnswer>>;
  release: Mock<(project: HoldProjectRef) => Promise<ProjectQuoteAnswer>>;
}

/** The album's quote: its two clips (Auto 40, Kling 1.6 …) and the free join; nothing held. */
const QUOTE: ProjectQuoteAnswer = {
  lines: [
    { part: 'clips', label: 'Auto', count: 2, each: 40, total: 80 },
    { part: 'join', count: 1, each: 0, total: 0 },
  ],
  total: 80,
  cost: 80,
  hold: null,
  balance: 500,
};
const held = (remaining: number, drawn = 0): ProjectQuoteAnswer => ({
  ...QUOTE,
  hold: { id: 'h-1', amount: remaining + drawn, drawn, remaining, status: 'open', close_reason: null },
});

const BOARD_ALBUM = buildBatch({ script_board: { clips: TWO_CLIPS } });
const GENERATED = buildBatch({
  script_board: { clips: TWO_CLIPS },
  videos: [buildClipVideo('v1'), buildClipVideo('v2', { cost: 40 })],
});

function buildServer(): BatchServer {
  return {
    load: vi.fn(async () => BOARD_ALBUM),
    write: vi.fn(async () => BOARD_ALBUM),
    saveBoard: vi.fn(async (_id: string, board: ScriptBoard) => buildBatch({ script_board: board })),
    generate: vi.fn(async () => GENERATED),
    poll: vi.fn(async (ids: string[]) => ids.map((id) => ({ id, kind: 'status' as const, status: buildStatus({ id }) }))),
    saveEdit: vi.fn(async () => BOARD_ALBUM),
    join: vi.fn(async () => buildBatch({ concat: buildClipVideo('c1', { tool: 'batch-concat', cost: 0 }) })),
    remove: vi.fn(async (id: string) => ({ id, deleted: true as const })),
    quote: vi.fn(async () => QUOTE),
    hold: vi.fn(async () => held(80)),
    release: vi.fn(async () => ({ ...QUOTE, hold: { ...held(80).hold!, status: 'closed' as const, close_reason: 'released' as const } })),
  };
}

let server = buildServer();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2025-01-01T10:00:00.000Z'));
  server = buildServer();
  // A retry waits a full-jitter delay (0 up to its ceiling): a draw near 0 would send it again
  // inside the same flush, so the draw is fixed mid-range and each test sees one retry at a time.
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The machine with its calls answered by `server`, polling every second and retrying after half of one. */
const machineFor = (calls: BatchServer) =>
  batchMachine.provide({
    actors: {
      loadBatch: fromPromise<Batch, { id: string }>(({ input }) => calls.load(input.id)),
      writeBoard: fromPromise<Batch, { id: string }>(({ input }) => calls.write(input.id)),
      saveBoard: fromPromise<Batch, { id: string; board: ScriptBoard }>(({ input }) => calls.saveBoard(input.id, input.board)),
      // The paid-request child, its call answered by `server`.
      generateVideos: paidRequestWith<GenerateRequest, Batch>(({ request, idempotencyKey }) => calls.generate(request.id, request.board, idempotencyKey)).provide({
        delays: { retryDelay: 500 },
      }),
      pollJobs: fromPromise<BatchJobUpdate[], { ids: string[] }>(({ input }) => calls.poll(input.ids)),
      saveEdit: fromPromise<Batch, { id: string; fields: EditBatchFields }>(({ input }) => calls.saveEdit(input.id, input.fields)),
      join: fromPromise<Batch, { id: string; fields: EditBatchFields }>(({ input }) => calls.join(input.id, input.fields)),
      deleteAlbum: fromPromise<{ id: string; deleted: true }, { id: string }>(({ input }) => calls.remove(input.id)),
      projectHold: projectHoldMachine.provide({
        actors: {
          quote: fromPromise<ProjectQuoteAnswer, { project: HoldProjectRef }>(({ input }) => calls.quote(input.project)),
          hold: fromPromise<ProjectQuoteAnswer, { project: HoldProjectRef; idempotencyKey: string }>(({ input }) => calls.hold(input.project)),
          release: fromPromise<ProjectQuoteAnswer, { project: HoldProjectRef }>(({ input }) => calls.release(input.project)),
        },
      }),
    },
    delays: { pollDelay: 1000 },
  });

function start(input: Partial<BatchInput> = {}) {
  const actor = createActor(machineFor(server), {
    input: { batchId: 'album-1', user: CREATOR, credit: 500, ...input },
  });
  const emitted: BatchEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, emitted };
}

const flush = () => vi.advanceTimersByTimeAsync(0);
const view = (actor: ReturnType<typeof start>['actor']) => selectAlbumView(actor.getSnapshot());

const ended = (id: string, overrides = {}): BatchJobUpdate => ({ id, kind: 'ended', media: buildFinishedVideo(id, overrides) });
const running = (id: string, progress: number, updatedAt = '2025-01-01T10:00:30.000Z'): BatchJobUpdate => ({
  id,
  kind: 'status',
  status: buildStatus({ id, status: 'processing_3d', progress, updated_at: updatedAt }),
});

describe('loading', () => {
  it('loads the album and takes its board as the draft', async () => {
    const { actor } = start();
    expect(view(actor).status).toBe('loading');
    await flush();
    expect(server.load).toHaveBeenCalledWith('album-1');
    expect(actor.getSnapshot().value).toBe('ready');
    expect(view(actor)).toMatchObject({ status: 'loaded', title: 'Holiday', typeLabel: 'AI batch', boardUnsaved: false });
    expect(view(actor).board.map((item) => item.clip.id)).toEqual(['clip-1', 'clip-2']);
  });

  it('says the album was not found on a 404, and loads again on reload', async () => {
    server.load.mockRejectedValueOnce(httpError(404, MESSAGES.batchNotFound.message));
    const { actor } = start();
    await flush();
    expect(view(actor).status).toBe('notFound');
    actor.send({ type: 'batch.reload' });
    await flush();
    expect(view(actor).status).toBe('loaded');
  });

  it('keeps the reason of another failure', async () => {
    server.load.mockRejectedValueOnce(httpError(500, 'The database is resting.'));
    const { actor } = start();
    await flush();
    expect(view(actor)).toMatchObject({ status: 'loadFailed', error: 'The database is resting.' });
    actor.send({ type: 'batch.reload' });
    await flush();
    expect(view(actor)).toMatchObject({ status: 'loaded', error: null });
  });

  it('follows clips still running when the album is opened', async () => {
    server.load.mockResolvedValue(GENERATED);
    const { actor } = start();
    await flush();
    expect(actor.getSnapshot().matches({ polling: 'waiting' })).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenCalledWith(['v1', 'v2']);
  });
});

describe('the script board', () => {
  it('writes a new board, which replaces the draft', async () => {
    server.load.mockResolvedValue(buildBatch());
    server.write.mockResolvedValue(buildBatch({ script_board: { clips: [buildClip({ id: 'new-1' })] } }));
    const { actor } = start();
    await flush();
    expect(view(actor)).toMatchObject({ board: [], generateReason: ALBUM_TEXTS.board.noBoard, canGenerate: false });
    actor.send({ type: 'board.write' });
    expect(view(actor).writingBoard).toBe(true);
    expect(view(actor).boardEditable).toBe(false);
    await flush();
    expect(view(actor).board.map((item) => item.clip.id)).toEqual(['new-1']);
    expect(view(actor).boardUnsaved).toBe(false);
  });

  it('shows why writing failed and keeps the board', async () => {
    server.write.mockRejectedValue(httpError(400, '"Nope" is not an available motion model.'));
    const { actor } = start();
    await flush();
    actor.send({ type: 'board.write' });
    await flush();
    expect(view(actor)).toMatchObject({ error: '"Nope" is not an available motion model.' });
    expect(view(actor).board).toHaveLength(2);
  });

  it('changes and moves clips, then saves the board as it stands', async () => {
    const { actor } = start();
    await flush();
    actor.send({ type: 'board.change', clipId: 'clip-2', changes: { prompt: 'the sea', model: 'Kling2' } });
    actor.send({ type: 'board.move', clipId: 'clip-2', offset: -1 });
    // Already first: nothing moves.
    actor.send({ type: 'board.move', clipId: 'clip-2', offset: -1 });
    expect(view(actor).board.map((item) => item.clip.id)).toEqual(['clip-2', 'clip-1']);
    expect(view(actor).board[0]).toMatchObject({ clip: { prompt: 'the sea', model: 'Kling2' }, cost: 160, canMoveUp: false, canMoveDown: true });
    expect(view(actor).boardUnsaved).toBe(true);

    actor.send({ type: 'board.save' });
    // A change while the save runs stays unsaved afterwards.
    actor.send({ type: 'board.change', clipId: 'clip-1', changes: { motion_length: 7 } });
    await flush();
    const [, sent] = server.saveBoard.mock.calls[0]!;
    expect(sent.clips.map((clip) => [clip.id, clip.prompt, clip.camera_path])).toEqual([
      ['clip-2', 'the sea', null],
      ['clip-1', 'a lighthouse', null],
    ]);
    expect(view(actor).boardUnsaved).toBe(true);
    actor.send({ type: 'board.save' });
    await flush();
    expect(view(actor).boardUnsaved).toBe(false);
    // Nothing to save: the event is refused.
    expect(actor.getSnapshot().can({ type: 'board.save' })).toBe(false);
  });

  it('sends a parallax board with motion type Parallax and no model', async () => {
    const clip = buildClip({ id: 'p1', motion_type: 'Parallax', camera_path: 'HorizontalArc', model: '' });
    server.load.mockResolvedValue(buildBatch({ batch_type: 'parallax', script_board: { clips: [clip] } }));
    const { actor } = start();
    await flush();
    actor.send({ type: 'board.change', clipId: 'p1', changes: { camera_path: 'StepIn', model: 'Veo' } });
    expect(view(actor)).toMatchObject({ typeLabel: 'Parallax batch', generateCost: PARALLAX_VIDEO_CREDITS });
    actor.send({ type: 'board.save' });
    await flush();
    expect(server.saveBoard.mock.calls[0]![1].clips[0]).toMatchObject({ motion_type: 'Parallax', camera_path: 'StepIn', model: '' });
  });

  it('refuses to generate a board with a problem, saying which clip', async () => {
    const { actor } = start();
    await flush();
    actor.send({ type: 'board.change', clipId: 'clip-2', changes: { motion_length: 11 } });
    expect(view(actor)).toMatchObject({ canGenerate: false, generateReason: ALBUM_TEXTS.board.lengthOutOfRange(2) });
    actor.send({ type: 'batch.generate' });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'board.change', clipId: 'clip-2', changes: { motion_length: 10, model: 'Nope' } });
    expect(view(actor).generateReason).toBe(ALBUM_TEXTS.board.chooseModel(2));
  });
});

describe('generating (SPEC §6 credit check first)', () => {
  it('costs the sum of the clips’ models', async () => {
    const { actor } = start();
    await flush();
    // Auto 40 + KlingAI 40.
    expect(view(actor)).toMatchObject({ generateCost: 80, generateReason: null, canGenerate: true });
  });

  it.each([
    ['a balance below the cost', { credit: 79 }, TOOL_TEXTS.notEnoughCredits(80, 79)],
    ['an unknown balance', { credit: null }, TOOL_TEXTS.notEnoughCredits(80, null)],
    ['a balance still loading', { credit: null, creditLoading: true }, TOOL_TEXTS.balanceLoading],
  ])('disables Generate for %s, and sends nothing when asked anyway', async (_, input, reason) => {
    const { actor } = start(input);
    await flush();
    expect(view(actor)).toMatchObject({ canGenerate: false, generateReason: reason });
    actor.send({ type: 'batch.generate' });
    await flush();
    expect(server.generate).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(view(actor).error).toBe(JOB_TEXTS.notEnoughCredits(80, input.credit ?? 0));
  });

  it('lets the Developer group generate without credits', async () => {
    const { actor } = start({ user: DEVELOPER, credit: 0 });
    await flush();
    actor.send({ type: 'batch.generate' });
    await flush();
    expect(server.generate).toHaveBeenCalledTimes(1);
  });

  it('follows the balance the page sends', async () => {
    const { actor } = start({ credit: 10 });
    await flush();
    expect(view(actor).canGenerate).toBe(false);
    actor.send({ type: 'batch.account', user: CREATOR, credit: 80, creditLoading: false });
    expect(view(actor)).toMatchObject({ canGenerate: true, credit: 80 });
  });

  it('sends the board with a fresh key, asks for a credits refresh, then polls the clips until all ended', async () => {
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'board.move', clipId: 'clip-2', offset: -1 });
    actor.send({ type: 'batch.generate' });
    expect(view(actor).generating).toBe(true);
    // The board being sent does not change under it.
    expect(view(actor).boardEditable).toBe(false);
    await flush();
    const [id, board, key] = server.generate.mock.calls[0]!;
    expect(id).toBe('album-1');
    expect(board.clips.map((clip) => clip.id)).toEqual(['clip-2', 'clip-1']);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(emitted).toEqual([{ type: 'batch.creditsChanged' }]);
    expect(actor.getSnapshot().matches({ polling: 'waiting' })).toBe(true);
    expect(view(actor).clips.map((clip) => [clip.label, clip.phase, clip.live])).toEqual([
      ['Clip 1 · Zoom in', 'queued', true],
      ['Clip 2 · Pan right', 'queued', true],
    ]);
    expect(view(actor).generateReason).toBe(ALBUM_TEXTS.generate.running);

    server.poll.mockResolvedValueOnce([running('v1', 50), ended('v2')]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(view(actor).clips.map((clip) => [clip.phase, clip.progress, clip.url])).toEqual([
      ['succeeded', 100, 'http://localhost/api/files/v2.mp4'],
      ['processing', 50, null],
    ]);
    server.poll.mockResolvedValueOnce([ended('v1', { status: 'failed', items: [], error: 'The render engine failed.', refunded: true })]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenLastCalledWith(['v1']);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(emitted).toEqual([{ type: 'batch.creditsChanged' }, { type: 'batch.creditsChanged' }]);
    expect(view(actor).clips[1]).toMatchObject({ phase: 'failed', live: false, error: 'The render engine failed.' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.poll).toHaveBeenCalledTimes(2);
  });

  it('sends the same key again after no answer, and gives up after BATCH_SUBMIT_RETRIES', async () => {
    server.generate.mockRejectedValue(networkError());
    const { actor } = start();
    await flush();
    actor.send({ type: 'batch.generate' });
    await flush();
    expect(actor.getSnapshot().matches('generating')).toBe(true);
    expect(paidChildOf(actor.getSnapshot())?.value).toBe('retrying');
    await vi.advanceTimersByTimeAsync(500 * BATCH_SUBMIT_RETRIES);
    expect(server.generate).toHaveBeenCalledTimes(BATCH_SUBMIT_RETRIES + 1);
    expect(new Set(server.generate.mock.calls.map(([, , key]) => key)).size).toBe(1);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(view(actor).error).toMatch(/^Network error/);

    // A new click is a new intent: a new key.
    server.generate.mockResolvedValue(GENERATED);
    actor.send({ type: 'batch.generate' });
    await flush();
    expect(server.generate.mock.calls.at(-1)![2]).not.toBe(server.generate.mock.calls[0]![2]);
  });

  it('shows the server’s refusal (402) and stays ready', async () => {
    server.generate.mockRejectedValue(httpError(402, 'Not enough credits: this costs 80 credits and you have 4.'));
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'batch.generate' });
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(view(actor).error).toBe('Not enough credits: this costs 80 credits and you have 4.');
    expect(emitted).toEqual([]);
  });
});

describe('polling the clips', () => {
  beforeEach(() => server.load.mockResolvedValue(GENERATED));

  it('ignores an answer older than the one shown', async () => {
    const { actor } = start();
    await flush();
    server.poll.mockResolvedValueOnce([running('v1', 60, '2025-01-01T10:00:40.000Z'), running('v2', 10)]);
    await vi.advanceTimersByTimeAsync(1000);
    server.poll.mockResolvedValueOnce([running('v1', 20, '2025-01-01T10:00:20.000Z'), running('v2', 30, '2025-01-01T10:00:50.000Z')]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(view(actor).clips.map((clip) => clip.progress)).toEqual([60, 30]);
  });

  it('ends a clip the server no longer has, and keeps polling through other failures', async () => {
    const { actor } = start();
    await flush();
    server.poll.mockResolvedValueOnce([
      { id: 'v1', kind: 'error', error: httpError(404, 'Media not found') },
      { id: 'v2', kind: 'error', error: networkError() },
    ]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(view(actor).clips.find((clip) => clip.id === 'v1')).toMatchObject({ phase: 'failed', error: JOB_TEXTS.notFound });
    expect(actor.getSnapshot().matches('polling')).toBe(true);
    server.poll.mockResolvedValueOnce([ended('v2')]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenLastCalledWith(['v2']);
    expect(actor.getSnapshot().value).toBe('ready');
  });

  it('pauses while the page is hidden and polls at once when shown', async () => {
    const { actor } = start({ hidden: true });
    await flush();
    expect(actor.getSnapshot().matches({ polling: 'paused' })).toBe(true);
    expect(view(actor).paused).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.poll).not.toHaveBeenCalled();
    actor.send({ type: 'batch.visibility', hidden: false });
    await flush();
    expect(server.poll).toHaveBeenCalledTimes(1);
    actor.send({ type: 'batch.visibility', hidden: true });
    expect(actor.getSnapshot().matches({ polling: 'paused' })).toBe(true);
  });

  it('gives up a poll that hangs and asks again', async () => {
    server.poll.mockImplementationOnce(() => new Promise(() => {}));
    const { actor } = start();
    await flush();
    await vi.advanceTimersByTimeAsync(1000 + JOB_REQUEST_TIMEOUT_MS);
    expect(actor.getSnapshot().matches({ polling: 'waiting' })).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenCalledTimes(2);
  });
});

describe('editing and joining', () => {
  const FINISHED = buildBatch({
    script_board: { clips: TWO_CLIPS },
    videos: [buildFinishedVideo('v1'), buildFinishedVideo('v2')],
    audio_urls: ['http://localhost/api/files/old.wav'],
  });

  it('cannot join before any clip is made', async () => {
    const { actor } = start();
    await flush();
    expect(view(actor)).toMatchObject({ canJoin: false, joinReason: ALBUM_TEXTS.edit.joinNeedsVideos });
    actor.send({ type: 'edit.join' });
    expect(actor.getSnapshot().value).toBe('ready');
  });

  it('saves the audio and extra videos without joining', async () => {
    server.load.mockResolvedValue(FINISHED);
    const { actor } = start();
    await flush();
    expect(view(actor)).toMatchObject({ audioUrl: 'http://localhost/api/files/old.wav', canSaveEdit: false });
    actor.send({ type: 'edit.setAudio', url: null });
    actor.send({ type: 'edit.addVideo', video: { url: 'http://localhost/api/files/x.mp4', label: 'outro.mp4' } });
    actor.send({ type: 'edit.addVideo', video: { url: 'http://localhost/api/files/y.mp4', label: 'extra.mp4' } });
    actor.send({ type: 'edit.removeVideo', index: 1 });
    expect(view(actor)).toMatchObject({ editUnsaved: true, canSaveEdit: true });
    actor.send({ type: 'edit.save' });
    await flush();
    expect(server.saveEdit).toHaveBeenCalledWith('album-1', {
      audio_urls: [],
      additional_videos: [{ url: 'http://localhost/api/files/x.mp4', label: 'outro.mp4' }],
    });
    expect(view(actor).editUnsaved).toBe(false);
  });

  it('joins the finished clips in board order with the audio and extra videos, then follows the joined video', async () => {
    server.load.mockResolvedValue(FINISHED);
    const { actor } = start();
    await flush();
    actor.send({ type: 'board.move', clipId: 'clip-2', offset: -1 });
    actor.send({ type: 'edit.addVideo', video: { url: 'http://localhost/api/files/x.mp4', label: 'outro.mp4' } });
    expect(view(actor).clips.map((clip) => clip.label)).toEqual(['Clip 1 · Zoom in', 'Clip 2 · Pan right']);
    actor.send({ type: 'edit.join' });
    expect(view(actor).joining).toBe(true);
    await flush();
    expect(server.join).toHaveBeenCalledWith('album-1', {
      audio_urls: ['http://localhost/api/files/old.wav'],
      additional_videos: [{ url: 'http://localhost/api/files/x.mp4', label: 'outro.mp4' }],
      concat_video_urls: ['http://localhost/api/files/v2.mp4', 'http://localhost/api/files/v1.mp4'],
      concat: true,
    });
    expect(actor.getSnapshot().matches('polling')).toBe(true);
    expect(view(actor)).toMatchObject({ joining: true, joined: { live: true, url: null } });
    server.poll.mockResolvedValueOnce([ended('c1')]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.poll).toHaveBeenCalledWith(['c1']);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(view(actor)).toMatchObject({ joining: false, joined: { url: 'http://localhost/api/files/c1.mp4', phase: 'succeeded' } });
  });

  it('shows why joining was refused', async () => {
    server.load.mockResolvedValue(FINISHED);
    server.join.mockRejectedValue(httpError(400, 'There is nothing to join yet.'));
    const { actor } = start();
    await flush();
    actor.send({ type: 'edit.join' });
    await flush();
    expect(view(actor)).toMatchObject({ error: 'There is nothing to join yet.', joining: false });
  });
});

describe('deleting', () => {
  it('deletes the album and says so', async () => {
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'batch.delete' });
    expect(view(actor).deleting).toBe(true);
    await flush();
    expect(server.remove).toHaveBeenCalledWith('album-1');
    expect(actor.getSnapshot().status).toBe('done');
    expect(emitted).toEqual([{ type: 'batch.deleted', id: 'album-1' }, { type: 'batch.creditsChanged' }]);
  });

  it.each([
    ['a 404', httpError(404, MESSAGES.batchNotFound.message)],
    ['a server error', httpError(500, 'Boom')],
    ['no answer', networkError()],
  ])('on %s shows SPEC §8’s toast and keeps the album', async (_, error) => {
    server.remove.mockRejectedValue(error);
    const { actor, emitted } = start();
    await flush();
    actor.send({ type: 'batch.delete' });
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(emitted).toEqual([
      { type: 'batch.notify', tone: 'error', title: 'Batch Not Found', message: 'Failed to find a Batch with this id' },
    ]);
  });

  it('can delete while clips run, and keeps following them when that fails', async () => {
    server.load.mockResolvedValue(GENERATED);
    server.remove.mockRejectedValue(httpError(500, 'Boom'));
    const { actor } = start();
    await flush();
    actor.send({ type: 'batch.delete' });
    await flush();
    expect(actor.getSnapshot().matches('polling')).toBe(true);
  });
});

describe('one quote for the whole album (issue 21 item 6)', () => {
  const holdRef = (actor: ReturnType<typeof start>['actor']) => actor.getSnapshot().children.albumHold!;

  it('prices the album in its hold child on start; holding tells the album what it keeps and refreshes the balance', async () => {
    const { actor, emitted } = start({ credit: 10 });
    await flush();
    expect(server.quote).toHaveBeenCalledWith({ kind: 'album', id: 'album-1' });
    expect(view(actor)).toMatchObject({ held: 0, canGenerate: false, generateCost: 80 });
    expect(emitted).toEqual([]);

    server.hold.mockResolvedValueOnce(held(80));
    holdRef(actor).send({ type: 'hold.place' });
    await flush();
    expect(server.hold).toHaveBeenCalledWith({ kind: 'album', id: 'album-1' });
    // Placed: the header's balance is read again, and the credit check counts what the hold keeps.
    expect(emitted).toEqual([{ type: 'batch.creditsChanged' }]);
    expect(actor.getSnapshot().context.held).toBe(80);
    expect(view(actor)).toMatchObject({ held: 80, canGenerate: true, generateReason: null });
  });

  it('generates from the hold, and prices what is left again when the clips were paid and when they ended', async () => {
    server.quote.mockResolvedValue(held(80));
    const { actor } = start({ credit: 0 });
    await flush();
    expect(view(actor).canGenerate).toBe(true);
    actor.send({ type: 'batch.generate' });
    await flush();
    expect(server.generate).toHaveBeenCalledTimes(1);
    expect(server.quote).toHaveBeenCalledTimes(2);
    server.poll.mockResolvedValueOnce([ended('v1'), ended('v2')]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(server.quote).toHaveBeenCalledTimes(3);
  });

  it('releases: the album no longer counts the hold, and the balance is read again', async () => {
    server.quote.mockResolvedValue(held(80));
    const { actor, emitted } = start({ credit: 10 });
    await flush();
    expect(view(actor).held).toBe(80);
    holdRef(actor).send({ type: 'hold.release' });
    await flush();
    expect(server.release).toHaveBeenCalledTimes(1);
    expect(view(actor)).toMatchObject({ held: 0, canGenerate: false });
    expect(emitted).toEqual([{ type: 'batch.creditsChanged' }]);
  });

  it('prices again after the board is written or saved and after the join (which ends the hold)', async () => {
    const album = buildBatch({ script_board: { clips: TWO_CLIPS }, videos: [buildFinishedVideo('v1'), buildFinishedVideo('v2')] });
    server.load.mockResolvedValue(album);
    server.write.mockResolvedValue(album);
    server.saveBoard.mockResolvedValue(album);
    const { actor } = start();
    await flush();
    expect(server.quote).toHaveBeenCalledTimes(1);
    actor.send({ type: 'board.write' });
    await flush();
    expect(server.quote).toHaveBeenCalledTimes(2);
    actor.send({ type: 'board.change', clipId: 'clip-1', changes: { prompt: 'sea' } });
    actor.send({ type: 'board.save' });
    await flush();
    expect(server.quote).toHaveBeenCalledTimes(3);
    server.join.mockResolvedValueOnce({ ...album, concat: buildFinishedVideo('c1', { tool: 'batch-concat', cost: 0 }) });
    actor.send({ type: 'edit.join' });
    await flush();
    expect(server.join).toHaveBeenCalledTimes(1);
    expect(server.quote).toHaveBeenCalledTimes(4);
  });
});
