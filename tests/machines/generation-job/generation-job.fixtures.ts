import { afterEach, beforeEach, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Mock } from 'vitest';
import { ApiError } from '@/services/api-error';
import { generationJobMachine } from '@/machines/generation-job/generation-job.machine';
import type {
  GenerationJobInput,
  GenerationJobParentEvent,
  Media,
  ProcessingStatus,
  SubmitRequest,
} from '@/machines/generation-job/generation-job.machine';
import { paidRequestWith } from '@/machines/paid-request/paid-request.machine';
import type { QueueRequest } from '@/machines/queue-control/queue-call';
import { buildFinishedMedia, buildMedia, buildStatus } from '../../services/media.fixtures';

export { buildFinishedMedia, buildMedia, buildStatus };

export const networkError = (): ApiError => new ApiError('Network error on GET media', { kind: 'network' });
export const httpError = (status: number, message: string): ApiError => new ApiError(message, { kind: 'http', status });

/** A user in an ordinary group: the credit rule compares cost and balance (SPEC §6). */
export const CREATOR = { attributes: { user_groups: ['Creator'] } };
export const DEVELOPER = { attributes: { user_groups: ['Developer'] } };
export const NO_GROUPS = { attributes: { user_groups: [] } };

export function buildJobInput(overrides: Partial<GenerationJobInput> = {}): GenerationJobInput {
  return {
    localId: 'job-1',
    tool: 'text-to-image',
    toolTitle: 'Text to Image',
    option: 'Seedream',
    optionLabel: 'Seedream',
    endpoint: 'image/text-2-image',
    cost: 4,
    fields: { prompt: 'a red fox', option: 'Seedream', aspect_ratio: '1:1', async_mode: true },
    assetId: null,
    idempotencyKey: 'key-1',
    createdAt: 1_000,
    user: CREATOR,
    credit: 100,
    ...overrides,
  };
}

/** One submit as the server receives it: the request and the key its paid-request child sent it with. */
export type SubmitInput = SubmitRequest & { idempotencyKey: string };

/** The job's submit child (paid-request.machine) with its call answered by `send`, retrying after half a second unless `realDelays`. */
export function submitChildFor(send: (input: SubmitInput, signal: AbortSignal) => Promise<Media>, options: { realDelays?: boolean } = {}) {
  const child = paidRequestWith<SubmitRequest, Media>(({ request, idempotencyKey }, signal) => send({ ...request, idempotencyKey }, signal));
  return options.realDelays ? child : child.provide({ delays: { retryDelay: 500 } });
}

/** The four calls a job makes, as mocks a test scripts. */
export interface JobServer {
  submit: Mock<(input: SubmitInput) => Promise<Media>>;
  poll: Mock<(mediaId: string) => Promise<ProcessingStatus>>;
  fetch: Mock<(mediaId: string) => Promise<Media>>;
  cancel: Mock<(mediaId: string) => Promise<Media>>;
  /** Issue 21 item 2: hold, resume, run next and edit. */
  queue: Mock<(mediaId: string, request: QueueRequest) => Promise<Media>>;
}

/**
 * For a test file of job machines: fake timers at a fixed moment and a fresh scripted server for
 * every test. The same object is returned for the whole file; its mocks are replaced before each test.
 */
export function setUpJobServer(): JobServer {
  const server = buildJobServer();
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-01-01T10:00:00.000Z'));
    Object.assign(server, buildJobServer());
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  return server;
}

export function buildJobServer(): JobServer {
  return {
    submit: vi.fn(async () => buildMedia()),
    poll: vi.fn(async () => buildStatus()),
    fetch: vi.fn(async () => buildFinishedMedia()),
    cancel: vi.fn(async () => buildMedia({ status: 'cancelled', refunded: true, updated_at: '2025-01-01T10:00:06.000Z' })),
    queue: vi.fn(async () => buildMedia({ updated_at: '2025-01-01T10:00:04.000Z' })),
  };
}

/** The job machine with its calls answered by `server` (and, unless `realDelays`, fixed waits). */
export function jobMachineFor(server: JobServer, options: { realDelays?: boolean } = {}) {
  const actors = {
    submit: submitChildFor((input) => server.submit(input), options),
    pollStatus: fromPromise<ProcessingStatus, { mediaId: string }>(({ input }) => server.poll(input.mediaId)),
    fetchMedia: fromPromise<Media, { mediaId: string }>(({ input }) => server.fetch(input.mediaId)),
    cancelJob: fromPromise<Media, { mediaId: string }>(({ input }) => server.cancel(input.mediaId)),
    queueCall: fromPromise<Media, { mediaId: string; request: QueueRequest }>(({ input }) => server.queue(input.mediaId, input.request)),
  };
  return options.realDelays
    ? generationJobMachine.provide({ actors })
    : generationJobMachine.provide({ actors, delays: { pollDelay: 1000, retryDelay: 500 } });
}

/** A started job actor with every event it emitted for its parent collected. */
export function startJob(server: JobServer, input: Partial<GenerationJobInput> = {}, options: { realDelays?: boolean } = {}) {
  const actor = createActor(jobMachineFor(server, options), { input: buildJobInput(input) });
  const reports: GenerationJobParentEvent[] = [];
  actor.on('*', (event) => reports.push(event));
  actor.start();
  return { actor, reports };
}

/** A promise and the functions that settle it, for answers a test releases at a chosen moment. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending promise callbacks (actor answers) run without moving the clock. */
export const flush = () => vi.advanceTimersByTimeAsync(0);
