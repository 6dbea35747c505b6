import { readFile } from 'node:fs/promises';
import { generationToolBySlug } from '../../../src/config/generation-tools.ts';
import { SOUND_EFFECT_DURATION_DEFAULT } from '../../../src/config/limits.ts';
import { AUDIO_MAX_SECONDS, synthesiseEffect, synthesiseMusic, synthesiseSpeech } from './audio-synth.ts';
import { finishDownloadedImage, renderImageFiles } from './image-render.ts';
import type { FileNames } from './video/finish.ts';
import { decodePicture } from './picture-decode.ts';
import { describePicture } from './picture-description.ts';
import type { AudioRenderRequest, MediaProbe, RenderedAudio, RenderedImage, RenderedVideo, RenderProvider } from './provider.ts';
import { RenderInputError, RenderRejectedError } from './render-errors.ts';
import { trainFinetune } from './finetune-train.ts';
import { DEFAULT_VIDEO_WORKERS, VideoWorkerPool } from './video/worker-pool.ts';
import { encodeWav, WAV_SAMPLE_RATE } from './wav-writer.ts';

/**
 * The local render engine: Kinora's stand-in for the third-party generative models (README "The
 * local stand-ins"). Real files from the real inputs, the same bytes for the same request.
 */

/** Text-to-music's length when none is asked for (Kinora's own default, in the tool's spec). */
export const MUSIC_DURATION_DEFAULT = generationToolBySlug('text-to-music')?.duration?.defaultSeconds ?? 15;

export interface LocalRenderEngineOptions {
  /** The longest sound effect or music accepted, in seconds (default AUDIO_MAX_SECONDS). */
  maxAudioSeconds?: number;
  /** Video tasks running at once, each on its own worker thread (default DEFAULT_VIDEO_WORKERS). */
  videoWorkers?: number;
}

/**
 * Failure simulation (`[fail]`, `[nsfw]`, failure and nsfw rates) lives in the job engine
 * (server/src/jobs/outcome.ts), which decides before it calls the provider; a real provider
 * adapter fails or flags on its own. This engine fails only on inputs it cannot read.
 */

function requestedSeconds(request: AudioRenderRequest, fallback: number, max: number): number {
  const seconds = request.durationSeconds ?? fallback;
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > max) {
    throw new RenderRejectedError('failed', `The duration must be above 0 and at most ${max} seconds.`);
  }
  return seconds;
}

type Speak = (text: string, voice: string | undefined) => Promise<Float32Array>;

async function renderAudioSamples(request: AudioRenderRequest, max: number, speak: Speak = synthesiseSpeech): Promise<{ samples: Float32Array; name: string }> {
  switch (request.tool) {
    case 'text-to-speech':
      return { samples: await speak(request.prompt, request.voice), name: 'speech.wav' };
    case 'text-to-audio':
      return {
        samples: synthesiseEffect(request.prompt, requestedSeconds(request, SOUND_EFFECT_DURATION_DEFAULT, max), request.seed + request.model),
        name: 'sound-effect.wav',
      };
    case 'text-to-music':
      return {
        samples: synthesiseMusic(request.prompt, requestedSeconds(request, MUSIC_DURATION_DEFAULT, max), request.seed + request.model),
        name: 'music.wav',
      };
    default: {
      const unknown: never = request.tool;
      throw new RangeError(`Unknown audio tool ${String(unknown)}`);
    }
  }
}

/**
 * The local engine as a remote provider uses it: what stays local whatever the provider (joins,
 * probes, parallax) and how a downloaded result becomes Kinora's files (thumbnail, GIF, logo).
 */
export interface LocalRenderEngine extends RenderProvider {
  /** A picture a remote model made: decoded (refused when it is not one), logo, PNG and thumbnail. */
  finishDownloadedImage(data: Buffer, logo: boolean): Promise<RenderedImage>;
  /** A video a remote model made: probed, logo, faststart MP4, GIF and thumbnail (on a video worker). */
  finishDownloadedVideo(data: Uint8Array, names: FileNames, logo: boolean): Promise<RenderedVideo>;
  /** Length, size and sound of a downloaded file. */
  probeBuffer(data: Uint8Array): Promise<MediaProbe>;
}

const RUNS_EVERYTHING: ReadonlyMap<string, string> = new Map();

export function createLocalRenderEngine(options: LocalRenderEngineOptions = {}): LocalRenderEngine {
  const maxAudioSeconds = Math.min(options.maxAudioSeconds ?? AUDIO_MAX_SECONDS, AUDIO_MAX_SECONDS);
  const videoWorkers = new VideoWorkerPool(options.videoWorkers ?? DEFAULT_VIDEO_WORKERS);
  return {
    name: 'local',
    unavailableModels: () => RUNS_EVERYTHING,
    renderImage: (request) => renderImageFiles(request),
    finishDownloadedImage: (data, logo) => finishDownloadedImage(data, logo),
    finishDownloadedVideo: (data, names, logo) => videoWorkers.run({ op: 'finishDownloaded', data, names, logo }),
    probeBuffer: (data) => videoWorkers.run({ op: 'probeBytes', data }),

    async renderAudio(request): Promise<RenderedAudio> {
      // eSpeak NG (WASM) blocks its thread for up to a second: it speaks on a video worker, so
      // the server's event loop keeps answering status polls meanwhile.
      const speak: Speak = (text, voice) => videoWorkers.run({ op: 'speech', text, voice });
      const { samples, name } = await renderAudioSamples(request, maxAudioSeconds, speak);
      return {
        audio: { name, contentType: 'audio/wav', data: encodeWav(samples) },
        durationSeconds: samples.length / WAV_SAMPLE_RATE,
      };
    },

    async describeImage(input) {
      let data: Buffer;
      try {
        data = await readFile(input.path);
      } catch {
        throw new RenderInputError('The picture could not be found.');
      }
      const picture = await decodePicture(data, 1024);
      if (!picture) throw new RenderInputError(`The picture could not be read (${input.contentType}).`);
      return describePicture(picture);
    },

    // Video work runs on worker threads (video/worker-pool.ts): WASM and per-pixel JS block.
    renderVideo: async (request) => [await videoWorkers.run({ op: 'renderVideo', request })],
    editVideo: (request) => videoWorkers.run({ op: 'editVideo', request }),
    concatVideos: (request) => videoWorkers.run({ op: 'concatVideos', request }),
    probeMedia: (path) => videoWorkers.run({ op: 'probeMedia', path }),

    trainFinetune: (request) => trainFinetune(request),
  };
}
