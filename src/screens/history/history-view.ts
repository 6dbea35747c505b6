import { shownResults, type ShownResult } from '@/components/media/media-result-card';
import { lightboxPictureId, type LightboxPicture } from '@/components/media/result-lightbox';
import type { ModelOption } from '@/config/asset-tools';
import { JOB_TOOLS, jobToolOf } from '@/config/job-tools';
import type { VideoMotionModel } from '@/config/motion-models';
import type { Option } from '@/config/enums';
import { ROUTES } from '@/config/routes';
import { classifyStatus } from '@/lib/job-status';
import { PARALLAX_OPTION, VIDEO_CREATION_TOOLS } from '@/config/video-creation';
import type { JobSearchStatus, Media } from '@/machines/job-history/job-history.machine';

/**
 * How the History page reads a job (pure, so the rules read and are tested apart from the JSX):
 * its prompt and seed from its args, its parameters as a list, the models a tool filter offers,
 * and where Remix and Inspect lead.
 */

/** The tool filter's choices: every tool a job can come from, by title. */
export const TOOL_CHOICES: Option[] = JOB_TOOLS.map((tool) => ({ value: tool.slug, label: tool.title }));

const VIDEO_CREATION_SLUGS: ReadonlySet<string> = new Set(Object.values(VIDEO_CREATION_TOOLS));

/** The models of a tool, as its page lists them (the app configuration's), for the model filter. */
export function modelChoices(tool: string | null, assetTools: readonly ModelOption[], mediaTools: readonly VideoMotionModel[]): Option[] {
  if (!tool) return [];
  if (tool === VIDEO_CREATION_TOOLS['parallax-motion']) return [{ value: PARALLAX_OPTION, label: PARALLAX_OPTION }];
  if (VIDEO_CREATION_SLUGS.has(tool)) return mediaTools.map((model) => ({ value: model.value, label: model.label }));
  return assetTools.filter((model) => model.available_tools.includes(tool)).map((model) => ({ value: model.value, label: model.label }));
}

/** A model's label as the model lists name it; the value itself when no list has it. */
export function modelLabel(option: string | null, assetTools: readonly ModelOption[], mediaTools: readonly VideoMotionModel[]): string {
  if (!option) return '';
  return assetTools.find((model) => model.value === option)?.label ?? mediaTools.find((model) => model.value === option)?.label ?? option;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** The job's prompt (or spoken text), if it had one. */
export const promptOf = (media: Media): string | null => text(media.args.prompt) ?? text(media.args.text);

/** A prompt cut to `max` characters for the list (the parameters show it whole). */
export const shortened = (value: string, max = 60): string => (value.length > max ? `${value.slice(0, max - 1).trimEnd()}…` : value);

/** The seed the job ran with, when the server kept one. */
export function seedOf(media: Media): string | null {
  if (typeof media.seed === 'number') return String(media.seed);
  const seed = media.args.seed;
  if (typeof seed === 'number' && Number.isFinite(seed)) return String(seed);
  return text(seed);
}

/** One parameter of a job, written out for reading. */
export interface JobParameter {
  name: string;
  value: string;
}

const written = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '';
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join('\n');
  return JSON.stringify(value, null, 2);
};

/** Every argument the job was run with, by name, exactly as the server kept it (its model first). */
export function jobParameters(media: Media): JobParameter[] {
  const args = Object.entries(media.args).map(([name, value]) => ({ name, value: written(value) }));
  const hasOption = args.some((arg) => arg.name === 'option');
  const sorted = args.sort((left, right) => left.name.localeCompare(right.name));
  return hasOption || !media.option ? sorted : [{ name: 'option', value: media.option }, ...sorted];
}

/** Remix: the tool page with this job's parameters filled in; null where the page cannot take them. */
export function remixPath(media: Media): string | null {
  const tool = jobToolOf(media.tool);
  return tool.remix && tool.path ? `${tool.path}?remix=${encodeURIComponent(media.id)}` : null;
}

/** The inspector opened on this job (its kept path, its history). */
export const inspectPath = (media: Media): string => `${ROUTES.inspector}?media=${encodeURIComponent(media.id)}`;

/** The job's status as the status filter names it. */
export function statusOf(media: Media): JobSearchStatus {
  const status = classifyStatus(media.status);
  if (status === 'processing') return 'live';
  return status === 'success' ? 'succeeded' : status;
}

export const STATUS_COLORS: Readonly<Record<JobSearchStatus, string>> = {
  live: 'blue',
  succeeded: 'green',
  failed: 'red',
  nsfw: 'orange',
  cancelled: 'gray',
};

/**
 * A finished run's pictures (issue 21 item 7: 1–4 per run, one result item each, each with its own
 * seed), in order; none for a job still running, a failed one, or a video or a sound.
 */
export const runPicturesOf = (media: Media): ShownResult[] =>
  media.kind === 'image' && statusOf(media) === 'succeeded' ? shownResults(media).filter((result) => result.url !== '') : [];

/** The pictures of the listed runs, in the list's order, for one lightbox over the page. */
export const historyLightboxPicturesOf = (items: readonly Media[]): LightboxPicture[] =>
  items.flatMap((media) =>
    runPicturesOf(media).map((picture) => ({
      id: lightboxPictureId(media.id, picture.label),
      url: picture.url,
      label: picture.label,
      alt: promptOf(media) ? `${picture.label}: ${promptOf(media) ?? ''}` : picture.label,
    })),
  );
