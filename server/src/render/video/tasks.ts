import type { MediaProbe, RenderedVideo, VideoConcatRequest, VideoEditRequest, VideoRenderRequest } from '../provider.ts';
import { concatVideos } from './concat.ts';
import { renderCreationVideo } from './creation.ts';
import { synthesiseSpeech } from '../audio-synth.ts';
import { finishDownloadedVideo } from './downloaded.ts';
import { editVideo } from './edits.ts';
import type { FileNames } from './finish.ts';
import { probeBytes } from './probe.ts';
import { readInputFile } from './sources.ts';

/**
 * The work the video worker does, one task per worker (worker-pool.ts). Requests and results are
 * plain data: they cross the thread boundary by structured clone.
 */

export type VideoTask =
  | { op: 'renderVideo'; request: VideoRenderRequest }
  | { op: 'editVideo'; request: VideoEditRequest }
  | { op: 'concatVideos'; request: VideoConcatRequest }
  | { op: 'probeMedia'; path: string }
  | { op: 'finishDownloaded'; data: Uint8Array; names: FileNames; logo: boolean }
  | { op: 'probeBytes'; data: Uint8Array }
  | { op: 'speech'; text: string; voice: string | undefined };

export interface VideoTaskResults {
  renderVideo: RenderedVideo;
  editVideo: RenderedVideo;
  concatVideos: RenderedVideo;
  probeMedia: MediaProbe;
  finishDownloaded: RenderedVideo;
  probeBytes: MediaProbe;
  speech: Float32Array;
}

export async function runVideoTask(task: VideoTask): Promise<VideoTaskResults[VideoTask['op']]> {
  switch (task.op) {
    case 'renderVideo':
      return renderCreationVideo(task.request);
    case 'editVideo':
      return editVideo(task.request);
    case 'concatVideos':
      return concatVideos(task.request);
    case 'probeMedia': {
      const { durationSeconds, width, height, hasAudio } = await probeBytes(await readInputFile({ path: task.path, field: 'file' }), 'input');
      return { durationSeconds, hasAudio, ...(width !== undefined && height !== undefined ? { width, height } : {}) };
    }
    case 'probeBytes': {
      const { durationSeconds, width, height, hasAudio } = await probeBytes(task.data, 'input');
      return { durationSeconds, hasAudio, ...(width !== undefined && height !== undefined ? { width, height } : {}) };
    }
    case 'speech':
      return synthesiseSpeech(task.text, task.voice);
    case 'finishDownloaded':
      return finishDownloadedVideo(task.data, task.names, task.logo);
    default: {
      const unknown: never = task;
      throw new RangeError(`Unknown video task ${JSON.stringify(unknown)}`);
    }
  }
}
