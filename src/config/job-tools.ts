import { ASSET_TOOLS } from './asset-tools';
import { FINETUNE_TOOL } from './finetune';
import { FINETUNE_TEXTS } from './finetune-texts';
import { GENERATION_TOOLS, generationToolBySlug } from './generation-tools';
import { TOOL_TEXTS } from './job-texts';
import { MOTION_MODELS } from './motion-models';
import { ROUTES } from './routes';
import { PARALLAX_OPTION, VIDEO_CREATION_TOOLS } from './video-creation';
import { VIDEO_TEXTS } from './video-texts';

/**
 * Every tool a job can come from, by the `tool` slug its media item carries, with the title a tool
 * page gives the job when it submits it (`toolTitle`) and the endpoint it is sent to. A job found on
 * the server (another device's, a re-run) is named here the same way as one this page submitted.
 */
export interface JobTool {
  slug: string;
  title: string;
  /** The page that makes such jobs; null for a job made from another page (an extension). */
  path: string | null;
  endpoint: string;
  /** The page can be filled in from a past job (`?remix={mediaId}`): the generation tool pages. */
  remix: boolean;
}

const VIDEO_JOB_TOOLS: readonly JobTool[] = [
  { slug: VIDEO_CREATION_TOOLS['ai-motion'], title: 'AI Motion', path: ROUTES.aiVideo.aiMotion, endpoint: 'media', remix: false },
  {
    slug: VIDEO_CREATION_TOOLS['parallax-motion'],
    title: TOOL_TEXTS.parallaxMotionLink,
    path: ROUTES.aiVideo.parallaxMotion,
    endpoint: 'media',
    remix: false,
  },
  { slug: VIDEO_CREATION_TOOLS['try-on'], title: 'Try On Video', path: ROUTES.aiVideo.tryOn, endpoint: 'media', remix: false },
  {
    slug: VIDEO_CREATION_TOOLS['character-animate'],
    title: 'Character Animate',
    path: ROUTES.aiVideo.characterAnimate,
    endpoint: 'media',
    remix: false,
  },
  { slug: VIDEO_CREATION_TOOLS['extend-video'], title: VIDEO_TEXTS.extendTitle, path: null, endpoint: 'media', remix: false },
];

/** Every tool whose jobs are listed, in menu order: generation tools, video creation, LoRA Finetune. */
export const JOB_TOOLS: readonly JobTool[] = [
  ...GENERATION_TOOLS.map((tool) => ({ slug: tool.slug, title: tool.title, path: tool.path, endpoint: tool.endpoint, remix: true })),
  ...VIDEO_JOB_TOOLS,
  { slug: FINETUNE_TOOL, title: FINETUNE_TEXTS.title, path: ROUTES.aiProduction.finetune, endpoint: 'finetune', remix: false },
];

/** The tool of a job's `tool` slug; a slug this build does not know is named by itself. */
export function jobToolOf(slug: string): JobTool {
  const known = JOB_TOOLS.find((tool) => tool.slug === slug);
  if (known) return known;
  const generation = generationToolBySlug(slug);
  return generation
    ? { slug, title: generation.title, path: generation.path, endpoint: generation.endpoint, remix: true }
    : { slug, title: slug, path: null, endpoint: '', remix: false };
}

/** A model's label as the model lists show it ("Flux 1.1 Pro"), from the built-in configuration. */
export function modelLabelOf(option: string | null | undefined): string {
  if (!option) return '';
  if (option === PARALLAX_OPTION) return PARALLAX_OPTION;
  return ASSET_TOOLS.find((model) => model.value === option)?.label ?? MOTION_MODELS.find((model) => model.value === option)?.label ?? option;
}
