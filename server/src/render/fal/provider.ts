import { numericSeed } from '../../lib/seed.ts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, createFalClient, type FalClient, type QueueStatus } from '@fal-ai/client';
import { STORY_TOOLS } from '../../../../src/config/story.ts';
import type { LocalRenderEngine } from '../local-engine.ts';
import type {
  AudioRenderRequest,
  FinetuneTrainRequest,
  ImageRenderRequest,
  ImageSetRequest,
  RemoteRequest,
  RenderContext,
  RenderedAudio,
  RenderedImage,
  RenderedVideo,
  RenderInputImage,
  RenderProvider,
  TextRequest,
  VideoEditRequest,
  VideoRenderRequest,
} from '../provider.ts';
import { RenderRejectedError, StoppedError } from '../render-errors.ts';
import { creationNames, RESULT_NAMES } from '../video/finish.ts';
import { FAL_MODELS, FAL_TEXT_CALL, FAL_VISION_CALL, falCallFor } from './models.ts';
import type { FalCall, FalInputFile, FalOutputKind, FalRequest } from './types.ts';
import { storedZip } from './zip.ts';

/**
 * The fal.ai render provider (README "Generating with fal.ai"): every model of Kinora's fal map
 * (`models.ts`) runs on fal's queue through the official `@fal-ai/client`.
 *
 * Lifecycle (https://docs.fal.ai/model-apis/model-endpoints/queue): a job's call is submitted
 * (`POST queue.fal.run/{endpoint}` → request_id), its request id is stored with the job before the
 * worker waits, then its status is polled (IN_QUEUE with a queue position → IN_PROGRESS with logs →
 * COMPLETED) and its result fetched. A restarted server finds the stored id and resumes watching
 * instead of submitting (and paying fal) twice. Kinora's cancel calls fal's cancel
 * (`PUT …/requests/{id}/cancel`). The client itself retries 429 and 5xx answers with back-off.
 *
 * Files: fal receives short-lived signed links to Kinora's own files (never local paths); results
 * are downloaded into Kinora's storage and finished by the local engine (thumbnails, GIFs, the
 * guest's logo), so no file is ever served from fal's URLs. What needs no model stays local:
 * joins, probes, parallax (Kinora's own 3D pipeline) and the plain video operations below.
 */

/** fal's queue host; KINORA_FAL_QUEUE_URL replaces it (a local stand-in in tests). */
export const FAL_QUEUE_URL = 'https://queue.fal.run';

/**
 * Video edits that are plain ffmpeg operations, not models: the local engine does them for real
 * (crop to a ratio, put an audio track under a video), so they stay local with any provider.
 */
export const LOCAL_OPERATIONS: ReadonlySet<string> = new Set(['CropToAspectRatio', 'AttachAudio']);

/** Parallax Motion is Kinora's own depth-and-camera pipeline, not a model (src/config/video-creation.ts). */
const LOCAL_CREATION_TYPES: ReadonlySet<string> = new Set(['parallax-motion']);

/** The largest result Kinora downloads from fal (a 10 s 1080p video is ~30 MB). */
const MAX_DOWNLOAD_BYTES = 500 * 1024 * 1024;

export interface FalProviderOptions {
  /** FAL_KEY. */
  key: string;
  /** Where fal's queue answers (default fal's own host). */
  queueUrl?: string;
  /** What stays local and how downloaded results become Kinora's files. */
  local: LocalRenderEngine;
  /**
   * A signed, expiring link to a stored file that fal can fetch (absolute URL on KINORA_PUBLIC_URL).
   * Absent (a server fal cannot reach, e.g. `npm start` on a laptop): inputs are uploaded to fal's
   * storage with the client's storage API instead (https://docs.fal.ai/model-apis/client#uploading-files).
   */
  linkFor?: (fileId: string) => string;
  /** How often a request's status is polled (default 1000 ms). */
  pollIntervalMs?: number;
  /** The client's retries of 429 / 5xx (default: 4 retries from 500 ms, capped at 15 s). */
  retry?: { maxRetries?: number; baseDelay?: number; maxDelay?: number };
}

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** fal's error answers carry `detail` as a string or as a list of validation errors ({ msg }). */
function detailOf(body: unknown): string {
  if (!isRecord(body)) return '';
  const { detail } = body;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((item) => (isRecord(item) && typeof item.msg === 'string' ? item.msg : ''))
      .filter(Boolean)
      .join('; ');
  }
  return '';
}

/** A fal failure as the job's error (shown to the person): fal's own words when it gave some. */
function rejection(error: unknown): RenderRejectedError {
  if (error instanceof RenderRejectedError) return error;
  if (error instanceof ApiError) {
    const detail = detailOf(error.body).slice(0, 300);
    if (error.status === 422 || error.status === 400) {
      return new RenderRejectedError('failed', `The model refused the request${detail ? `: ${detail}` : '.'}`);
    }
    return new RenderRejectedError('failed', `The model could not make this (fal answered ${error.status})${detail ? `: ${detail}` : '.'}`);
  }
  return new RenderRejectedError('failed', 'The model could not be reached.');
}

/**
 * A numeric seed from Kinora's render seed (hex): the same request, the same seed at fal; a job's
 * own seed (server/src/lib/seed.ts) is what its render seed starts with, so fal is given it.
 */
export const falSeed = numericSeed;

/** The URL of the answer's file of this kind, in the shapes fal's endpoints answer. */
export function outputUrl(data: unknown, kind: FalOutputKind): string | null {
  if (!isRecord(data)) return null;
  const urlOf = (value: unknown): string | null => {
    if (typeof value === 'string') return value;
    if (isRecord(value) && typeof value.url === 'string') return value.url;
    return null;
  };
  const first = (value: unknown): string | null => (Array.isArray(value) ? urlOf(value[0]) : urlOf(value));
  switch (kind) {
    case 'image':
      return first(data.images) ?? urlOf(data.image);
    case 'video':
      return urlOf(data.video) ?? first(data.videos);
    case 'audio':
      return urlOf(data.audio) ?? urlOf(data.audio_file) ?? urlOf(data.audio_url);
    case 'lora':
      return urlOf(data.diffusers_lora_file) ?? urlOf(data.lora_file);
    case 'text':
      return null;
  }
}

/** Every picture URL of an image answer (`images: [{ url }]`, or one `image`), in fal's order. */
export function outputUrls(data: unknown): string[] {
  if (!isRecord(data)) return [];
  const urlOf = (value: unknown): string | null => (typeof value === 'string' ? value : isRecord(value) && typeof value.url === 'string' ? value.url : null);
  const list = Array.isArray(data.images) ? data.images : [data.image];
  return list.map(urlOf).filter((url): url is string => url !== null);
}

/** The text of a language model's answer. */
export function outputText(data: unknown): string {
  if (!isRecord(data)) return '';
  for (const key of ['output', 'text', 'response']) {
    const value = data[key];
    if (typeof value === 'string') return value;
  }
  return '';
}

/** Whether fal's safety checker flagged the result (`has_nsfw_concepts: [true]`, or `nsfw_content_detected`). */
export function isFlagged(data: unknown): boolean {
  if (!isRecord(data)) return false;
  const flags = [data.has_nsfw_concepts, data.nsfw_content_detected];
  return flags.some((flag) => flag === true || (Array.isArray(flag) && flag.includes(true)));
}

const NSFW_MESSAGE = 'The model flagged the result as not safe for work.';
const NO_FILE = 'The model answered without a file.';

/** The file name for a downloaded audio result of this type. */
function audioName(request: AudioRenderRequest, contentType: string): string {
  const stem = request.tool === 'text-to-speech' ? 'speech' : request.tool === 'text-to-music' ? 'music' : 'sound-effect';
  const extension = /wav/.test(contentType) ? 'wav' : /ogg/.test(contentType) ? 'ogg' : /flac/.test(contentType) ? 'flac' : 'mp3';
  return `${stem}.${extension}`;
}

/** Waits `ms`, or less when a signal aborts. */
const wait = (ms: number, signals: readonly (AbortSignal | undefined)[]): Promise<void> =>
  new Promise((resolve) => {
    const live = signals.filter((signal): signal is AbortSignal => signal !== undefined);
    const done = (): void => {
      clearTimeout(timer);
      for (const signal of live) signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const signal of live) signal.addEventListener('abort', done, { once: true });
  });

export function createFalRenderProvider(options: FalProviderOptions): RenderProvider {
  const queueUrl = (options.queueUrl ?? FAL_QUEUE_URL).replace(/\/+$/, '');
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const { local } = options;
  const client: FalClient = createFalClient({
    credentials: options.key,
    // The client builds https://queue.fal.run/… itself; a stand-in's URL replaces the host.
    requestMiddleware: async (request) =>
      queueUrl === FAL_QUEUE_URL ? request : { ...request, url: request.url.replace(FAL_QUEUE_URL, queueUrl) },
    retry: { maxRetries: 4, baseDelay: 500, maxDelay: 15_000, ...options.retry },
  });

  const unavailable = new Map<string, string>();
  for (const [model, entry] of Object.entries(FAL_MODELS)) {
    if (!entry.fal && !LOCAL_OPERATIONS.has(model)) unavailable.set(model, entry.reason);
  }

  /** The call that runs `model` for `key`, or the job fails with the map's reason. */
  function callFor(model: string, key: string): FalCall {
    const found = falCallFor(model, key);
    if ('endpoint' in found) return found;
    throw new RenderRejectedError('failed', `${model} cannot run here: ${found.reason}`);
  }

  /** A link fal can fetch: a signed link to the stored file, or a data URI for a file not stored (a prompt helper upload). */
  async function fileFor(input: RenderInputImage): Promise<FalInputFile> {
    const { linkFor } = options;
    if (input.fileId && linkFor) return { field: input.field, url: linkFor(input.fileId), contentType: input.contentType };
    const data = await readFile(input.path);
    if (!linkFor) {
      try {
        const url = await client.storage.upload(new Blob([data], { type: input.contentType }));
        return { field: input.field, url, contentType: input.contentType };
      } catch (error) {
        throw rejection(error);
      }
    }
    return { field: input.field, url: `data:${input.contentType};base64,${data.toString('base64')}`, contentType: input.contentType };
  }

  const filesFor = async (inputs: readonly RenderInputImage[]): Promise<FalInputFile[]> => Promise.all(inputs.map(fileFor));

  /** Cancels a request at fal; a request that already ended answers 400, which is fine. */
  async function cancelAtFal(remote: RemoteRequest): Promise<void> {
    try {
      await client.queue.cancel(remote.endpoint, { requestId: remote.requestId });
    } catch {
      // Already completed or unknown: nothing is running there to stop.
    }
  }

  /**
   * Submits the call (or finds the request an earlier claim submitted), watches it until it
   * completes and answers fal's output. Stops (StoppedError) when the server stops, keeping the
   * request for the next claim; cancels it at fal when the job was cancelled.
   */
  async function run(call: FalCall, request: FalRequest, context: RenderContext | undefined, key: string): Promise<unknown> {
    const stopped = (): boolean => Boolean(context?.signal?.aborted || context?.cancelled?.aborted);
    let remote = context?.recall(key);
    let resumed = remote !== undefined;
    let input: Record<string, unknown>;
    try {
      input = call.input(request);
    } catch (error) {
      // The map refuses what the endpoint cannot take (a missing picture, an effect fal lacks).
      throw new RenderRejectedError('failed', error instanceof Error ? error.message : 'The model cannot take this request.');
    }
    const submit = async (): Promise<RemoteRequest> => {
      try {
        const submitted = await client.queue.submit(call.endpoint, { input });
        const fresh = { endpoint: call.endpoint, requestId: submitted.request_id };
        await context?.remember(key, fresh);
        return fresh;
      } catch (error) {
        throw rejection(error);
      }
    };
    remote ??= await submit();
    let polls = 0;
    for (;;) {
      if (context?.cancelled?.aborted) {
        await cancelAtFal(remote);
        throw new StoppedError();
      }
      if (stopped()) throw new StoppedError();
      let status: QueueStatus;
      try {
        status = await client.queue.status(remote.endpoint, { requestId: remote.requestId, logs: true });
      } catch (error) {
        // A stored request fal no longer knows (expired from its queue): submitted once more.
        if (resumed && error instanceof ApiError && error.status === 404) {
          resumed = false;
          remote = await submit();
          continue;
        }
        throw rejection(error);
      }
      if (status.status === 'COMPLETED') {
        const failure = (status as { error?: unknown }).error;
        if (typeof failure === 'string' && failure) throw new RenderRejectedError('failed', `The model could not make this: ${failure.slice(0, 300)}`);
        break;
      }
      polls += 1;
      // fal gives a queue position, not a percentage: waiting fills the first tenth, running rises
      // towards 90 % as the polls go by, and the result's download and finishing take the rest.
      context?.onProgress?.(status.status === 'IN_QUEUE' ? 0.05 : 0.1 + 0.8 * (1 - Math.exp(-polls / 15)));
      await wait(pollIntervalMs, [context?.signal, context?.cancelled]);
    }
    try {
      const result = await client.queue.result(remote.endpoint, { requestId: remote.requestId });
      return result.data;
    } catch (error) {
      throw rejection(error);
    }
  }

  /** Downloads a result file into memory (bounded), from fal's CDN or a data URI. */
  async function download(url: string | null): Promise<{ data: Buffer; contentType: string }> {
    if (!url) throw new RenderRejectedError('failed', NO_FILE);
    if (url.startsWith('data:')) {
      const match = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(url);
      if (!match) throw new RenderRejectedError('failed', NO_FILE);
      const body = match[3] ?? '';
      return { data: match[2] ? Buffer.from(body, 'base64') : Buffer.from(decodeURIComponent(body)), contentType: match[1] || 'application/octet-stream' };
    }
    let response: Response;
    try {
      response = await fetch(url);
    } catch {
      throw new RenderRejectedError('failed', 'The result could not be downloaded from the model.');
    }
    if (!response.ok) throw new RenderRejectedError('failed', `The result could not be downloaded from the model (${response.status}).`);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_DOWNLOAD_BYTES) throw new RenderRejectedError('failed', 'The result is too large to store.');
    const data = Buffer.from(await response.arrayBuffer());
    if (data.length > MAX_DOWNLOAD_BYTES) throw new RenderRejectedError('failed', 'The result is too large to store.');
    return { data, contentType: response.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream' };
  }

  /** Runs a call and checks the safety flag; answers fal's output. */
  async function runChecked(call: FalCall, request: FalRequest, context: RenderContext | undefined, key: string): Promise<unknown> {
    const data = await run(call, request, context, key);
    if (isFlagged(data)) throw new RenderRejectedError('nsfw', NSFW_MESSAGE);
    return data;
  }

  /** The trained weights a fine-tuned model's job carries (args.finetune_style, written by trainFinetune). */
  const withLora = (args: Readonly<Json>): Json => {
    const style = args.finetune_style;
    const loraUrl = isRecord(style) && typeof style.lora_url === 'string' ? style.lora_url : undefined;
    return loraUrl ? { ...args, lora_url: loraUrl } : { ...args };
  };

  async function renderImage(request: ImageRenderRequest, context?: RenderContext) {
    // A story's scene picture composites its element pictures: the scene-image call of its model.
    // A scene with no element pictures is drawn from its words alone (the edit endpoints need a picture).
    const scene = request.tool === STORY_TOOLS.scene || request.tool === 'scene-image';
    const key = scene ? (request.inputs.length > 0 ? 'scene-image' : 'text-to-image') : request.tool;
    const call = callFor(request.model, key);
    const data = await runChecked(
      call,
      {
        tool: key,
        model: request.model,
        prompt: request.prompt,
        args: withLora(request.args),
        files: await filesFor(request.inputs),
        seed: falSeed(request.seed),
        aspectRatio: request.aspectRatio && request.aspectRatio !== 'Origin' ? request.aspectRatio : undefined,
      },
      context,
      'main',
    );
    const { data: bytes } = await download(outputUrl(data, 'image'));
    return local.finishDownloadedImage(bytes, request.logo);
  }

  /**
   * Several pictures from one call (issue 21 item 7): the model's `num_images` with the run's first
   * seed (models-shared.ts numImages). fal answers them in `images`; an answer with fewer than were
   * asked (and paid for) fails the job, so its credits are refunded.
   */
  async function renderImages(request: ImageSetRequest, context?: RenderContext): Promise<RenderedImage[]> {
    const call = callFor(request.model, request.tool);
    const data = await runChecked(
      call,
      {
        tool: request.tool,
        model: request.model,
        prompt: request.prompt,
        args: withLora(request.args),
        files: await filesFor(request.inputs),
        seed: falSeed(request.seed),
        aspectRatio: request.aspectRatio && request.aspectRatio !== 'Origin' ? request.aspectRatio : undefined,
        images: request.seeds.length,
      },
      context,
      'main',
    );
    const urls = outputUrls(data);
    if (urls.length < request.seeds.length) {
      throw new RenderRejectedError('failed', `The model answered ${urls.length} of the ${request.seeds.length} pictures asked for.`);
    }
    const pictures: RenderedImage[] = [];
    for (const url of urls.slice(0, request.seeds.length)) {
      const { data: bytes } = await download(url);
      pictures.push(await local.finishDownloadedImage(bytes, request.logo));
    }
    return pictures;
  }

  async function renderAudio(request: AudioRenderRequest, context?: RenderContext): Promise<RenderedAudio> {
    const call = callFor(request.model, request.tool);
    const data = await runChecked(
      call,
      {
        tool: request.tool,
        model: request.model,
        prompt: request.prompt,
        args: { ...(request.voice ? { voice: request.voice } : {}), ...(request.durationSeconds ? { duration: request.durationSeconds } : {}) },
        files: [],
        seed: falSeed(request.seed),
        durationSeconds: request.durationSeconds,
      },
      context,
      'main',
    );
    const { data: bytes, contentType } = await download(outputUrl(data, 'audio'));
    const probed = await local.probeBuffer(bytes);
    if (!probed.hasAudio || probed.durationSeconds <= 0) throw new RenderRejectedError('failed', 'The model answered a file that is not audio.');
    const type = contentType.startsWith('audio/') ? contentType : 'audio/mpeg';
    return { audio: { name: audioName(request, type), contentType: type, data: bytes }, durationSeconds: probed.durationSeconds };
  }

  async function renderVideo(request: VideoRenderRequest, context?: RenderContext): Promise<RenderedVideo[]> {
    if (LOCAL_CREATION_TYPES.has(request.creationType)) return local.renderVideo(request);
    const key = request.creationType === 'ai-motion' ? (request.motionMode ?? 'image') : request.creationType;
    const call = callFor(request.model, key);
    const { preset } = request;
    const data = await runChecked(
      call,
      {
        tool: key,
        model: request.model,
        prompt: request.prompt,
        args: {
          ...preset,
          prompt_strength: request.promptStrength,
          motion_mode: request.motionMode,
          frame_selection: request.frameSelection ?? null,
          copy: request.index,
        },
        files: await filesFor(request.inputs),
        // Each copy of a preset is its own take: a different seed per copy.
        seed: falSeed(request.seed) + request.index - 1,
        aspectRatio: request.aspectRatio && request.aspectRatio !== 'Origin' ? request.aspectRatio : undefined,
        durationSeconds: preset.motion_length,
      },
      context,
      'main',
    );
    const { data: bytes } = await download(outputUrl(data, 'video'));
    return [await local.finishDownloadedVideo(bytes, creationNames(request.logo), request.logo)];
  }

  /**
   * Lip sync from words: fal's lip-sync endpoints take a sound, so the words are spoken first by the
   * text to speech model (its own call, stored like any other) and its file is handed over as audio_url.
   */
  async function spokenAudio(request: VideoEditRequest, context?: RenderContext): Promise<FalInputFile[]> {
    const words = typeof request.args.prompt === 'string' ? request.args.prompt.trim() : '';
    if (request.tool !== 'lip-sync' || words === '' || request.inputs.some((input) => input.field === 'audio_url')) return [];
    const speech = await runChecked(
      callFor('Text2Speech', 'text-to-speech'),
      {
        tool: 'text-to-speech',
        model: 'Text2Speech',
        prompt: words,
        args: typeof request.args.voice === 'string' ? { voice: request.args.voice } : {},
        files: [],
        seed: falSeed(request.seed),
      },
      context,
      'speech',
    );
    const url = outputUrl(speech, 'audio');
    if (!url) throw new RenderRejectedError('failed', 'The words could not be spoken.');
    return [{ field: 'audio_url', url, contentType: 'audio/mpeg' }];
  }

  async function editVideo(request: VideoEditRequest, context?: RenderContext): Promise<RenderedVideo> {
    if (LOCAL_OPERATIONS.has(request.model)) return local.editVideo(request);
    const call = callFor(request.model, request.tool);
    const data = await runChecked(
      call,
      {
        tool: request.tool,
        model: request.model,
        prompt: typeof request.args.prompt === 'string' ? request.args.prompt : '',
        args: request.args,
        files: [...(await filesFor(request.inputs)), ...(await spokenAudio(request, context))],
        seed: falSeed(request.seed),
        aspectRatio: typeof request.args.aspect_ratio === 'string' && request.args.aspect_ratio !== 'Origin' ? request.args.aspect_ratio : undefined,
      },
      context,
      'main',
    );
    const { data: bytes } = await download(outputUrl(data, 'video'));
    return local.finishDownloadedVideo(bytes, RESULT_NAMES, request.logo);
  }

  /**
   * A LoRA fine-tune: the pictures go to fal's trainer as one zip (a data URI); the trained weights'
   * URL is kept in the trained model's style (finetunes.style.lora_url), which every later image
   * job with that model hands back to fal as `loras`. The preview is the first picture made with it.
   */
  async function trainFinetune(request: FinetuneTrainRequest, context?: RenderContext) {
    const kontext = request.kind === 'FluxKontextFinetune';
    const entries = [];
    for (const [index, input] of request.inputs.entries()) {
      const extension = path.extname(input.path) || `.${input.contentType.split('/')[1] ?? 'png'}`;
      // Kontext learns from pairs: fal's trainer reads `{n}_start` and `{n}_end` files.
      const name = kontext ? `${Math.floor(index / 2) + 1}_${index % 2 === 0 ? 'start' : 'end'}${extension}` : `${index + 1}${extension}`;
      entries.push({ name, data: await readFile(input.path) });
    }
    const zip = storedZip(entries);
    const trainer = callFor(request.kind, 'finetune');
    const trained = await run(
      trainer,
      {
        tool: 'finetune',
        model: request.kind,
        prompt: request.prompt,
        args: { trigger_word: request.triggerWord, images_data_url: `data:application/zip;base64,${zip.toString('base64')}` },
        files: [{ field: 'images_data_url', url: `data:application/zip;base64,${zip.toString('base64')}`, contentType: 'application/zip' }],
        seed: falSeed(request.seed),
      },
      context,
      'train',
    );
    const loraUrl = outputUrl(trained, 'lora');
    if (!loraUrl) throw new RenderRejectedError('failed', 'The trainer answered without weights.');
    const configUrl = isRecord(trained) && isRecord(trained.config_file) && typeof trained.config_file.url === 'string' ? trained.config_file.url : null;
    const style = { provider: 'fal', kind: request.kind, lora_url: loraUrl, config_url: configUrl, trigger_word: request.triggerWord };
    const previewModel = kontext ? 'FluxKontextFinetuned' : 'FluxFinetuned';
    const previewKey = kontext ? 'image-to-image' : 'text-to-image';
    const previewInputs = kontext ? request.inputs.slice(0, 1) : [];
    const preview = await runChecked(
      callFor(previewModel, previewKey),
      {
        tool: previewKey,
        model: previewModel,
        prompt: [request.triggerWord, request.prompt].filter(Boolean).join(' '),
        args: { lora_url: loraUrl },
        files: await filesFor(previewInputs),
        seed: falSeed(request.seed),
      },
      context,
      'preview',
    );
    const { data: bytes } = await download(outputUrl(preview, 'image'));
    return { style, preview: await local.finishDownloadedImage(bytes, false) };
  }

  async function describeImage(input: RenderInputImage): Promise<string> {
    const data = await runChecked(
      FAL_VISION_CALL,
      {
        tool: 'image-to-prompt',
        model: 'Image2Prompt',
        prompt: 'Describe this picture as a prompt for an image generator: subject, setting, light, style. One paragraph, no preamble.',
        args: {},
        files: [await fileFor(input)],
        seed: 0,
      },
      undefined,
      'describe',
    );
    const text = outputText(data).trim();
    if (!text) throw new RenderRejectedError('failed', 'The model could not describe the picture.');
    return text;
  }

  async function writeText(request: TextRequest): Promise<string> {
    const data = await runChecked(
      FAL_TEXT_CALL,
      { tool: 'text', model: 'text', prompt: request.prompt, args: { system_prompt: request.system }, files: [], seed: 0 },
      request.signal ? { jobId: 'text', recall: () => undefined, remember: async () => {}, signal: request.signal } : undefined,
      'text',
    );
    const text = outputText(data).trim();
    if (!text) throw new RenderRejectedError('failed', 'The language model answered nothing.');
    return text;
  }

  return {
    name: 'fal',
    unavailableModels: () => unavailable,
    writeText,
    renderImage,
    renderImages,
    renderAudio,
    describeImage,
    renderVideo,
    editVideo,
    // Joining clips and reading a file's length are Kinora's own work, whatever the provider.
    concatVideos: (request) => local.concatVideos(request),
    probeMedia: (file) => local.probeMedia(file),
    trainFinetune,
  };
}
