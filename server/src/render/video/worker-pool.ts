// Loaded on the main thread before any worker loads it: libvips must never be unloaded while
// the process runs (sharp's advice for worker threads on glibc).
import 'sharp';
import { Worker } from 'node:worker_threads';
import type { RenderedFile, RenderedVideo } from '../provider.ts';
import { RenderInputError, RenderRejectedError } from '../render-errors.ts';
import type { VideoTask, VideoTaskResults } from './tasks.ts';
import type { WorkerReply, WorkerRequest } from './video-worker.ts';

/**
 * Runs video tasks on worker threads, at most `size` at once; the rest wait in order. Video work
 * is CPU-bound WASM and per-pixel JS that would stall the server's event loop for seconds.
 * Workers are kept between tasks (starting one costs ~0.6 s of module loading) and let go after
 * a minute without work, which also hands their WASM memory back. An idle worker does not keep
 * the process alive.
 */

const WORKER_URL = new URL('./video-worker-boot.mjs', import.meta.url);
/** One worker per core of the machine this runs on (2 here); more would only queue for the CPU. */
export const DEFAULT_VIDEO_WORKERS = 2;
const IDLE_MS = 60_000;

type Failure = Extract<WorkerReply, { ok: false }>['error'];

/** A structured clone turns Buffers into Uint8Arrays: give the files their Buffers back. */
const reviveFile = (file: RenderedFile): RenderedFile => ({ ...file, data: Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength) });

function reviveVideo(video: RenderedVideo): RenderedVideo {
  return { ...video, video: reviveFile(video.video), gif: reviveFile(video.gif), thumbnail: reviveFile(video.thumbnail) };
}

/** The worker's error as the class the job engine recognises (a rejected render ends the job as failed). */
function reviveError(error: Failure): Error {
  if (error.name === 'RenderInputError') return new RenderInputError(error.message);
  if (error.outcome) return new RenderRejectedError(error.outcome, error.message);
  const revived = new Error(error.message);
  revived.name = error.name;
  if (error.stack) revived.stack = error.stack;
  return revived;
}

/** The longest one video task may run (a 10 s clip renders in seconds; a 30 s edit in well under a minute). */
const TASK_TIMEOUT_MS = 5 * 60 * 1000;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** One worker thread and the task it is running (at most one). */
class VideoWorker {
  private readonly worker: Worker;
  private pending: { id: number; callbacks: Pending } | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  alive = true;

  constructor(private readonly onGone: (worker: VideoWorker) => void) {
    this.worker = new Worker(WORKER_URL);
    this.worker.on('message', (reply: WorkerReply) => this.settle(reply));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`The video worker stopped (exit code ${code}).`)));
    this.idle();
  }

  run(id: number, task: VideoTask): Promise<unknown> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.worker.ref();
    return new Promise((resolve, reject) => {
      // A task that hangs (a WASM run that never returns) must not hold the worker, and its job's
      // lease, for ever: the worker is stopped and the task fails.
      const timeout = setTimeout(() => {
        this.fail(new Error(`The video task took longer than ${TASK_TIMEOUT_MS / 1000} s and was stopped.`));
        void this.worker.terminate();
      }, TASK_TIMEOUT_MS);
      timeout.unref();
      const settled = <T,>(callback: (value: T) => void) => (value: T) => {
        clearTimeout(timeout);
        callback(value);
      };
      this.pending = { id, callbacks: { resolve: settled(resolve), reject: settled(reject) } };
      this.worker.postMessage({ id, task } satisfies WorkerRequest);
    });
  }

  private settle(reply: WorkerReply): void {
    const pending = this.pending;
    if (!pending || pending.id !== reply.id) return;
    this.pending = null;
    this.idle();
    if (reply.ok) pending.callbacks.resolve(reply.value);
    else pending.callbacks.reject(reviveError(reply.error));
  }

  /** A crashed or stopped worker fails its task and leaves the pool. */
  private fail(error: Error): void {
    if (!this.alive) return;
    this.alive = false;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.pending?.callbacks.reject(error);
    this.pending = null;
    this.onGone(this);
  }

  private idle(): void {
    this.worker.unref();
    this.idleTimer = setTimeout(() => {
      this.alive = false;
      this.onGone(this);
      void this.worker.terminate();
    }, IDLE_MS);
    this.idleTimer.unref();
  }
}

export class VideoWorkerPool {
  private readonly idleWorkers: VideoWorker[] = [];
  private busy = 0;
  private nextId = 1;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size = DEFAULT_VIDEO_WORKERS) {}

  async run<Op extends VideoTask['op']>(task: Extract<VideoTask, { op: Op }>): Promise<VideoTaskResults[Op]> {
    await this.slot();
    const worker = this.idleWorkers.pop() ?? new VideoWorker((gone) => this.forget(gone));
    try {
      const value = await worker.run(this.nextId++, task);
      // Only the tasks that answer a video carry Buffers to revive; probes and speech samples cross as they are.
      const plain = task.op === 'probeMedia' || task.op === 'probeBytes' || task.op === 'speech';
      return (plain ? value : reviveVideo(value as RenderedVideo)) as VideoTaskResults[Op];
    } finally {
      if (worker.alive) this.idleWorkers.push(worker);
      this.release();
    }
  }

  private forget(worker: VideoWorker): void {
    const index = this.idleWorkers.indexOf(worker);
    if (index >= 0) this.idleWorkers.splice(index, 1);
  }

  private slot(): Promise<void> {
    if (this.busy < this.size) {
      this.busy += 1;
      return Promise.resolve();
    }
    // A finishing task hands its slot straight to the next in line (busy stays the same).
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy -= 1;
  }
}
