import { DEFAULT_PROMPT_HELPER_MODE } from '@/config/enums';
import type { PromptHelperMode } from '@/config/enums';
import { promptHelperResultSchema } from '@/services/schemas/media';
import type { PromptHelperResult } from '@/services/schemas/media';
import { apiPostMultipart } from '@/services/http';

/** What the prompt is for (Kinora's `mode` field of `text/prompt`). */
export type PromptPurpose = 'image' | 'video' | 'audio' | 'speech' | 'music' | 'sound';

export interface PromptHelperRequest {
  /** SPEC §9: SuggestPrompt, RefinePrompt, Image2Prompt or InspireMe (the default). */
  option?: PromptHelperMode;
  prompt: string;
  mode: PromptPurpose;
  /** SPEC §5: a URL when the media has one, the file itself when it is local; at most one is sent. */
  imageUrl?: string;
  imageFile?: Blob;
  videoUrl?: string;
  videoFile?: Blob;
  signal?: AbortSignal;
}

/**
 * POST text/prompt (multipart): a prompt suggested, refined, guessed from a picture or invented.
 * Only the first given of image_url, image_file, video_url, video_file is sent.
 */
export const promptHelper = (request: PromptHelperRequest): Promise<PromptHelperResult> => {
  const media: Record<string, string | Blob> = {};
  if (request.imageUrl) media.image_url = request.imageUrl;
  else if (request.imageFile) media.image_file = request.imageFile;
  else if (request.videoUrl) media.video_url = request.videoUrl;
  else if (request.videoFile) media.video_file = request.videoFile;
  return apiPostMultipart(
    'text/prompt',
    { option: request.option ?? DEFAULT_PROMPT_HELPER_MODE, prompt: request.prompt, mode: request.mode, ...media },
    promptHelperResultSchema,
    { signal: request.signal },
  );
};
