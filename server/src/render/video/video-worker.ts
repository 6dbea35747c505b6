import { parentPort } from 'node:worker_threads';
import { RenderRejectedError } from '../render-errors.ts';
import { runVideoTask, type VideoTask } from './tasks.ts';

/**
 * The video worker: runs the tasks the pool sends (one at a time) and answers each with its
 * result or its error. Everything that blocks (drawing frames in JS, the H.264 and ffmpeg WASM)
 * happens on this thread.
 */

export interface WorkerRequest {
  id: number;
  task: VideoTask;
}

export type WorkerReply = { id: number } & (
  | { ok: true; value: unknown }
  | { ok: false; error: { name: string; message: string; outcome?: 'failed' | 'nsfw'; stack?: string } }
);

async function answer({ id, task }: WorkerRequest): Promise<WorkerReply> {
  try {
    return { id, ok: true, value: await runVideoTask(task) };
  } catch (error) {
    if (error instanceof RenderRejectedError) return { id, ok: false, error: { name: error.name, message: error.message, outcome: error.outcome } };
    const failure = error instanceof Error ? error : new Error(String(error));
    return { id, ok: false, error: { name: failure.name, message: failure.message, ...(failure.stack ? { stack: failure.stack } : {}) } };
  }
}

parentPort?.on('message', (request: WorkerRequest) => {
  void answer(request).then((reply) => parentPort?.postMessage(reply));
});
