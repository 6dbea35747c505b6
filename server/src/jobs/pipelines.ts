import { numericSeed, SEED_MAX, seededHex } from '../lib/seed.ts';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { configure } from 'safe-stable-stringify';
import { BATCH_CLIP_TOOL, BATCH_CONCAT_TOOL } from '../../../src/config/batch.ts';
import { FINETUNE_TOOL } from '../../../src/config/finetune.ts';
import { generationToolBySlug } from '../../../src/config/generation-tools.ts';
import { STORY_AUDIO_MODELS, STORY_TOOLS } from '../../../src/config/story.ts';
import { VIDEO_CREATION_TOOLS, type VideoCreationType } from '../../../src/config/video-creation.ts';
import { parsePosePreset, type PosePreset } from '../../../src/lib/pose-preset.ts';
import { resultLabel, type LabelArgs, type ResultLabelKind } from '../../../src/lib/result-labels.ts';
import { batchFolders, gifPath, thumbnailPath, videoPath } from '../../../src/lib/result-paths.ts';
import type { Queryable } from '../db/database.ts';
import { findMediaFile } from '../db/files.ts';
import { setFinetuneStyle } from '../db/finetunes.ts';
import type { JobStage, MediaRow } from '../db/media.ts';
import type {
  AudioTool,
  FrameSelection,
  ImageRenderRequest,
  RenderContext,
  RenderedImage,
  RenderedVideo,
  RenderInputImage,
  RenderProvider,
} from '../render/provider.ts';
import { StoppedError } from '../render/render-errors.ts';
import type { FileToStore, MediaStore } from './media-store.ts';

/** One result of a job: its file, and the thumbnail and GIF that go with it. */
export interface PipelineItem {
  result: FileToStore;
  thumbnail?: FileToStore | null;
  gif?: FileToStore | null;
  /** SPEC §3 result folder below base_url (creation videos). */
  folderPath?: string | null;
  /** SPEC §3 label `{run}.{index}.{option}` (video results). */
  label?: string | null;
  /** The seed this picture was made with (generation jobs' pictures, issue 21 item 7). */
  seed?: number | null;
}

/** What one job produced, in item order. */
export interface PipelineResult {
  items: PipelineItem[];
  /** SPEC §3 media version: "3" when the files have paths below base_url (every video result). */
  version?: string;
  /** Runs in the transaction that completes the job (a fine-tune's learned style is stored with its success). */
  onComplete?: (tx: Queryable) => Promise<void>;
}

/** How far the render is, 0–1 (the engine turns it into the job's progress). */
export type RenderProgress = (fraction: number) => void;

export interface PipelineOptions {
  onProgress?: RenderProgress;
  /** The server is stopping: a job of several videos stops between two (StoppedError). */
  signal?: AbortSignal;
  /** Lent to the provider (remote request ids, cancel); each call gets its own key below it. */
  context?: RenderContext;
}

/** The context of one provider call of a job: its keys are prefixed, so a job's calls never share one. */
function scoped(context: RenderContext | undefined, prefix: string, onProgress?: RenderProgress): RenderContext | undefined {
  if (!context) return undefined;
  return {
    ...context,
    onProgress: onProgress ?? context.onProgress,
    recall: (key) => context.recall(`${prefix}:${key}`),
    remember: (key, request) => context.remember(`${prefix}:${key}`, request),
  };
}

/** A multi-video render stopped between two videos (or a remote one while waiting); nothing was kept. */
export { StoppedError };

const AUDIO_TOOLS: readonly AudioTool[] = ['text-to-speech', 'text-to-audio', 'text-to-music'];
const isAudioTool = (tool: string): tool is AudioTool => (AUDIO_TOOLS as readonly string[]).includes(tool);

/** The media `tool` of each creation type, and of a batch's clips and a story's videos (whose args name their creation type). */
const CREATION_TOOLS: ReadonlySet<string> = new Set<string>([...Object.values(VIDEO_CREATION_TOOLS), BATCH_CLIP_TOOL, STORY_TOOLS.video]);
/** Jobs that join clips into one video: a batch's and a story's. */
const CONCAT_TOOLS: ReadonlySet<string> = new Set<string>([BATCH_CONCAT_TOOL, STORY_TOOLS.concat]);
/** SPEC §3 bullet_version of the result folders Kinora writes. */
export const BULLET_VERSION = '1';
/** Result files of a single-video job (video tools, a batch's joined video): at the media's base_url. */
const SINGLE_VIDEO_FOLDER = '';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** How many pictures an image job makes (args.num_images, issue 21 item 7; 1 when absent). */
export function imagesOfArgs(args: Readonly<Record<string, unknown>>): number {
  const count = Number(args.num_images);
  return Number.isInteger(count) && count > 1 ? count : 1;
}

/** A video creation job (SPEC §2.4): its videos are made in the 3D stage and published in the bullet stage. */
export const isVideoCreationJob = (job: Pick<MediaRow, 'kind' | 'tool'>): boolean => job.kind === 'video' && CREATION_TOOLS.has(job.tool);

/** SPEC §4 stages the job passes, in order. */
export function jobStages(job: Pick<MediaRow, 'kind' | 'tool'>): readonly JobStage[] {
  return isVideoCreationJob(job) ? ['source', '3d', 'bullet'] : ['source'];
}

/** SPEC §4 success status of a finished job: images end in success_image, everything else (a fine-tune too) in success. */
export function successStatusOf(job: Pick<MediaRow, 'kind' | 'tool'>): string {
  return job.kind === 'image' && job.tool !== FINETUNE_TOOL ? 'success_image' : 'success';
}

/**
 * Keys sorted by code unit (safe-stable-stringify), so equal requests give equal seeds whatever
 * order their fields came in, on every machine: the hand-written sort used localeCompare, whose
 * order depends on the locale, so a seed could differ between two servers.
 */
const stableJson = configure({ deterministic: true });

/**
 * The render seed: the request itself (tool, model, fields, input files), so the same request
 * renders the same bytes; a job with a seed of its own (issue 21 item 7) starts with it, so the
 * model is given that seed (numericSeed) and another seed renders another picture.
 */
export function renderSeed(job: Pick<MediaRow, 'tool' | 'option' | 'args' | 'inputs'> & { seed?: number | null }): string {
  // How many pictures a run makes is not part of what each picture is: picture k of a run of four
  // is the picture a run of one makes with its seed (seed + k), so any result can be made again alone.
  const { num_images: _count, ...args } = job.args;
  const hash = createHash('sha256')
    .update(stableJson({ tool: job.tool, option: job.option, args, inputs: job.inputs }) ?? '')
    .digest('hex');
  return job.seed === null || job.seed === undefined ? hash : seededHex(job.seed, hash);
}

/**
 * The seeds of a run's pictures (issue 21 item 7): the job's seed, then seed + 1, … (wrapping past
 * SEED_MAX), one per picture, so each picture has its own and shows it.
 */
export function pictureSeeds(seed: number, count: number): number[] {
  return Array.from({ length: Math.max(1, count) }, (_, index) => (seed + index) % (SEED_MAX + 1));
}

/** The seed a generation job records when the person chose none: the request's own (the same request, the same seed). */
export const defaultSeed = (job: Pick<MediaRow, 'tool' | 'option' | 'args' | 'inputs'>): number => numericSeed(renderSeed(job));

export class MissingInputError extends Error {
  constructor(field: string) {
    super(`The file given as ${field} is no longer stored.`);
    this.name = 'MissingInputError';
  }
}

/** The job's input files as local files (downloaded once from a bucket), in the order the request gave them; a file deleted since fails the job. */
export async function resolveInputs(db: Queryable, store: MediaStore, job: Pick<MediaRow, 'inputs'>): Promise<RenderInputImage[]> {
  const inputs: RenderInputImage[] = [];
  for (const input of job.inputs) {
    const file = await findMediaFile(db, input.file_id);
    if (!file) throw new MissingInputError(input.field);
    inputs.push({ path: await store.localPath(file), contentType: file.content_type, field: input.field, fileId: file.id });
  }
  return inputs;
}

/**
 * A rendered video stored at its paths below base_url: a creation video at SPEC §3's
 * `{folder}/{name}[_logo].mp4`, the GIF beside it and `{folder}/thumbnail/thumbnail.jpg`; a
 * single-video job (no folder) as `result.mp4`, `result.gif` and `thumbnail.jpg`.
 */
function videoItem(rendered: RenderedVideo, folder: string, name: string, logo: boolean, label: string): PipelineItem {
  const mp4 = videoPath(folder, name, logo).replace(/^\//, '');
  const gif = gifPath(folder, name, logo).replace(/^\//, '');
  const thumbnail = folder === SINGLE_VIDEO_FOLDER ? 'thumbnail.jpg' : thumbnailPath(folder);
  return {
    result: {
      role: 'result',
      name: path.posix.basename(mp4),
      contentType: rendered.video.contentType,
      data: rendered.video.data,
      width: rendered.width,
      height: rendered.height,
      durationSeconds: rendered.durationSeconds,
      relPath: mp4,
    },
    gif: { role: 'gif', name: path.posix.basename(gif), contentType: rendered.gif.contentType, data: rendered.gif.data, relPath: gif },
    thumbnail: {
      role: 'thumbnail',
      name: path.posix.basename(thumbnail),
      contentType: rendered.thumbnail.contentType,
      data: rendered.thumbnail.data,
      relPath: thumbnail,
    },
    folderPath: folder === SINGLE_VIDEO_FOLDER ? null : folder,
    label,
  };
}

/** The label rule of SPEC §3 for a video of this job. */
function videoLabel(job: MediaRow, index: number, preset: PosePreset | null): string {
  const creationType = text(job.args.creation_type) as VideoCreationType | '';
  let kind: ResultLabelKind = 'video';
  const args: LabelArgs = {
    option: job.option,
    effect: text(job.args.effect) || null,
    aspect_ratio: text(job.args.aspect_ratio) || null,
    voice: text(job.args.voice) || null,
  };
  if (creationType === 'parallax-motion') {
    kind = 'parallax';
    args.camera_path = preset?.camera_path ?? null;
  } else if (creationType === 'try-on') {
    kind = 'tryOnVideo';
    args.model = preset?.model || null;
  }
  // One media item is one run (SPEC §3 "Job history" without history arrays).
  return resultLabel({ run: 1, index, kind, args });
}

const firstVideo = (videos: readonly RenderedVideo[]): RenderedVideo => {
  const [video] = videos;
  if (!video) throw new Error('the render provider answered no video');
  return video;
};

/** SPEC §2.4 creation job: one video per preset and copy, in preset order, each in its SPEC folder. */
async function renderCreation(
  db: Queryable,
  store: MediaStore,
  provider: RenderProvider,
  job: MediaRow,
  { onProgress, signal, context }: PipelineOptions,
): Promise<PipelineResult> {
  const presets = parsePosePreset(job.args.pose_preset);
  const inputs = await resolveInputs(db, store, job);
  const seed = renderSeed(job);
  const total = presets.reduce((sum, preset) => sum + preset.quantity, 0);
  const promptStrength = Number(job.args.prompt_strength);
  const items: PipelineItem[] = [];
  for (const preset of presets) {
    const folders = batchFolders('', BULLET_VERSION, preset).map((folder) => folder.replace(/^\//, ''));
    for (const [copy, folder] of folders.entries()) {
      // Each video takes seconds: a stopping server waits for one, not for all of them.
      if (signal?.aborted) throw new StoppedError();
      const rendered = firstVideo(
        await provider.renderVideo({
          creationType: text(job.args.creation_type),
          motionMode: text(job.args.motion_mode) || null,
          preset,
          index: copy + 1,
          inputs,
          prompt: preset.prompt || text(job.args.prompt),
          promptStrength: Number.isFinite(promptStrength) ? promptStrength : 50,
          aspectRatio: text(job.args.aspect_ratio) || null,
          frameSelection: (text(job.args.frame_selection) || null) as FrameSelection | null,
          model: preset.model || job.option || '',
          seed,
          logo: job.logo_variant,
        }, scoped(context, `video-${items.length + 1}`, (fraction) => onProgress?.((items.length + fraction) / Math.max(1, total)))),
      );
      items.push(videoItem(rendered, folder, 'video', job.logo_variant, videoLabel(job, items.length + 1, preset)));
      onProgress?.(items.length / Math.max(1, total));
    }
  }
  return { items, version: '3' };
}

/** SPEC §7 video/*: one operation on the input video (or picture) → `result.mp4`, `result.gif`, `thumbnail.jpg`. */
async function renderVideoTool(db: Queryable, store: MediaStore, provider: RenderProvider, job: MediaRow, context?: RenderContext): Promise<PipelineResult> {
  const rendered = await provider.editVideo({
    tool: job.tool,
    model: job.option ?? '',
    endpoint: job.endpoint ?? '',
    args: job.args,
    inputs: await resolveInputs(db, store, job),
    seed: renderSeed(job),
    logo: job.logo_variant,
  }, scoped(context, 'edit'));
  return { items: [videoItem(rendered, SINGLE_VIDEO_FOLDER, 'result', false, videoLabel(job, 1, null))], version: '3' };
}

/**
 * The audio tool a job renders with: its own, or for a story's sound the tool of its kind
 * (narration → text-to-speech, music → text-to-music).
 */
function audioToolOf(job: Pick<MediaRow, 'tool' | 'args'>): AudioTool {
  if (job.tool === STORY_TOOLS.audio) {
    const kind = text(job.args.audio_kind);
    if (kind === 'speech' || kind === 'music') return STORY_AUDIO_MODELS[kind].tool;
    throw new Error(`no audio pipeline for a story sound of kind "${kind}"`);
  }
  if (!isAudioTool(job.tool)) throw new Error(`no audio pipeline for tool ${job.tool}`);
  return job.tool;
}

/**
 * The tool the provider draws a picture with. A story's element picture is drawn like a
 * text-to-image (or, from a reference picture, an image-to-image); a scene picture keeps its own
 * tool, which composites the element pictures into the scene.
 */
function imageToolOf(job: Pick<MediaRow, 'tool' | 'inputs'>): string {
  if (job.tool === STORY_TOOLS.element) return job.inputs.length > 0 ? 'image-to-image' : 'text-to-image';
  return job.tool;
}

/**
 * A batch's (or a story's) joined video: its video inputs are the clips in order (the album's result videos, then
 * its additional videos), an audio input (the first) plays under it.
 */
async function renderConcat(db: Queryable, store: MediaStore, provider: RenderProvider, job: MediaRow): Promise<PipelineResult> {
  const inputs = await resolveInputs(db, store, job);
  const clips = inputs.filter((input) => input.contentType.startsWith('video/')).map((input) => input.path);
  const audio = inputs.find((input) => input.contentType.startsWith('audio/'))?.path ?? null;
  if (clips.length === 0) throw new MissingInputError('concat_video_urls');
  const rendered = await provider.concatVideos({ clips, audio, seed: renderSeed(job), logo: job.logo_variant });
  return { items: [videoItem(rendered, SINGLE_VIDEO_FOLDER, 'result', false, videoLabel(job, 1, null))], version: '3' };
}

/** LoRA fine-tune: the learned style goes to the finetunes row with the job's success; the preview is its result. */
async function renderFinetune(db: Queryable, store: MediaStore, provider: RenderProvider, job: MediaRow, context?: RenderContext): Promise<PipelineResult> {
  const trained = await provider.trainFinetune({
    kind: job.option ?? '',
    inputs: await resolveInputs(db, store, job),
    prompt: text(job.args.prompt),
    triggerWord: text(job.args.trigger_word),
    seed: renderSeed(job),
  }, scoped(context, 'finetune'));
  const { preview } = trained;
  return {
    items: [
      {
        result: {
          role: 'result',
          name: preview.image.name,
          contentType: preview.image.contentType,
          data: preview.image.data,
          width: preview.width,
          height: preview.height,
        },
        thumbnail: { role: 'thumbnail', name: preview.thumbnail.name, contentType: preview.thumbnail.contentType, data: preview.thumbnail.data },
      },
    ],
    onComplete: (tx) => setFinetuneStyle(tx, job.id, trained.style),
  };
}

/** Renders a job's results through the provider (for a creation job: its 3D stage). */
export async function runPipeline(
  db: Queryable,
  store: MediaStore,
  provider: RenderProvider,
  job: MediaRow,
  options: PipelineOptions = {},
): Promise<PipelineResult> {
  const model = job.option ?? '';
  const prompt = text(job.args.prompt);
  const seed = renderSeed(job);
  if (options.context) options = { ...options, context: { ...options.context, onProgress: options.onProgress } };
  if (job.kind === 'video') {
    if (isVideoCreationJob(job)) return renderCreation(db, store, provider, job, options);
    if (CONCAT_TOOLS.has(job.tool)) return renderConcat(db, store, provider, job);
    if (generationToolBySlug(job.tool)?.kind === 'video') return renderVideoTool(db, store, provider, job, options.context);
    throw new Error(`no video pipeline for tool ${job.tool}`);
  }
  if (job.tool === FINETUNE_TOOL) return renderFinetune(db, store, provider, job, options.context);
  if (job.kind === 'audio') {
    const duration = Number(job.args.duration);
    const rendered = await provider.renderAudio({
      tool: audioToolOf(job),
      model,
      prompt,
      voice: text(job.args.voice) || undefined,
      durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : undefined,
      seed,
    }, scoped(options.context, 'audio'));
    return {
      items: [
        {
          result: {
            role: 'result',
            name: rendered.audio.name,
            contentType: rendered.audio.contentType,
            data: rendered.audio.data,
            durationSeconds: rendered.durationSeconds,
          },
        },
      ],
    };
  }
  return renderImageJob(db, store, provider, job, options);
}

/** A rendered picture as a result item (its PNG and JPEG thumbnail), with the seed it was made with. */
const imageItem = (rendered: RenderedImage, seed: number | null): PipelineItem => ({
  result: {
    role: 'result',
    name: rendered.image.name,
    contentType: rendered.image.contentType,
    data: rendered.image.data,
    width: rendered.width,
    height: rendered.height,
  },
  thumbnail: { role: 'thumbnail', name: rendered.thumbnail.name, contentType: rendered.thumbnail.contentType, data: rendered.thumbnail.data },
  seed,
});

/**
 * An image job: one picture, or (args.num_images, issue 21 item 7) several from one run, picture k
 * made with the seed seed + k. A provider that makes several in one call (fal's `num_images`) is
 * asked once; otherwise each picture is its own render with its own seed, so each is different.
 */
async function renderImageJob(
  db: Queryable,
  store: MediaStore,
  provider: RenderProvider,
  job: MediaRow,
  { onProgress, context }: PipelineOptions,
): Promise<PipelineResult> {
  const count = imagesOfArgs(job.args);
  const seeds = job.seed === null ? null : pictureSeeds(job.seed, count);
  const request: ImageRenderRequest = {
    tool: imageToolOf(job),
    model: job.option ?? '',
    prompt: text(job.args.prompt),
    args: job.args,
    inputs: await resolveInputs(db, store, job),
    aspectRatio: text(job.args.aspect_ratio) || undefined,
    seed: renderSeed(job),
    logo: job.logo_variant,
  };
  if (count === 1 || seeds === null) {
    const rendered = await provider.renderImage(request, scoped(context, 'image'));
    return { items: [imageItem(rendered, job.seed)] };
  }
  const renderSeeds = seeds.map((seed) => renderSeed({ ...job, seed }));
  if (provider.renderImages) {
    const rendered = await provider.renderImages({ ...request, seeds: renderSeeds }, scoped(context, 'images'));
    return { items: rendered.map((picture, index) => imageItem(picture, seeds[index] ?? null)) };
  }
  const items: PipelineItem[] = [];
  for (const [index, seed] of renderSeeds.entries()) {
    const rendered = await provider.renderImage(
      { ...request, seed },
      scoped(context, `image-${index + 1}`, (fraction) => onProgress?.((index + fraction) / count)),
    );
    items.push(imageItem(rendered, seeds[index] ?? null));
    onProgress?.((index + 1) / count);
  }
  return { items };
}
