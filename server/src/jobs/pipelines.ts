import { createHash } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { findMediaFile } from '../db/files.ts';
import type { MediaRow } from '../db/media.ts';
import type { AudioTool, RenderInputImage, RenderProvider } from '../render/provider.ts';
import type { FileToStore, MediaStore } from './media-store.ts';

/** What one job produced: the files to store, in item order (a result, then its thumbnail). */
export interface PipelineResult {
  files: FileToStore[];
}

const AUDIO_TOOLS: readonly AudioTool[] = ['text-to-speech', 'text-to-audio', 'text-to-music'];
const isAudioTool = (tool: string): tool is AudioTool => (AUDIO_TOOLS as readonly string[]).includes(tool);

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Sorted keys, so equal requests give equal seeds whatever order their fields came in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The render seed: the request itself (tool, model, fields, input files), so the same request renders the same bytes. */
export function renderSeed(job: Pick<MediaRow, 'tool' | 'option' | 'args' | 'inputs'>): string {
  return createHash('sha256')
    .update(stableJson({ tool: job.tool, option: job.option, args: job.args, inputs: job.inputs }))
    .digest('hex');
}

export class MissingInputError extends Error {
  constructor(field: string) {
    super(`The picture given as ${field} is no longer stored.`);
    this.name = 'MissingInputError';
  }
}

async function resolveInputs(db: Queryable, store: MediaStore, job: MediaRow): Promise<RenderInputImage[]> {
  const inputs: RenderInputImage[] = [];
  for (const input of job.inputs) {
    const file = await findMediaFile(db, input.file_id);
    if (!file) throw new MissingInputError(input.field);
    inputs.push({ path: store.absolutePath(file), contentType: file.content_type, field: input.field });
  }
  return inputs;
}

/** Renders one image or audio job through the provider. */
export async function runPipeline(
  db: Queryable,
  store: MediaStore,
  provider: RenderProvider,
  job: MediaRow,
): Promise<PipelineResult> {
  const model = job.option ?? '';
  const prompt = text(job.args.prompt);
  const seed = renderSeed(job);
  if (job.kind === 'audio') {
    if (!isAudioTool(job.tool)) throw new Error(`no audio pipeline for tool ${job.tool}`);
    const duration = Number(job.args.duration);
    const rendered = await provider.renderAudio({
      tool: job.tool,
      model,
      prompt,
      voice: text(job.args.voice) || undefined,
      durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : undefined,
      seed,
    });
    return {
      files: [
        {
          role: 'result',
          name: rendered.audio.name,
          contentType: rendered.audio.contentType,
          data: rendered.audio.data,
          durationSeconds: rendered.durationSeconds,
        },
      ],
    };
  }
  if (job.kind !== 'image') throw new Error(`no pipeline for ${job.kind} jobs`);
  const rendered = await provider.renderImage({
    tool: job.tool,
    model,
    prompt,
    args: job.args,
    inputs: await resolveInputs(db, store, job),
    aspectRatio: text(job.args.aspect_ratio) || undefined,
    seed,
    logo: job.logo_variant,
  });
  return {
    files: [
      {
        role: 'result',
        name: rendered.image.name,
        contentType: rendered.image.contentType,
        data: rendered.image.data,
        width: rendered.width,
        height: rendered.height,
      },
      {
        role: 'thumbnail',
        name: rendered.thumbnail.name,
        contentType: rendered.thumbnail.contentType,
        data: rendered.thumbnail.data,
      },
    ],
  };
}
