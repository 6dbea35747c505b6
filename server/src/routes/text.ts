import { rm, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_PROMPT_HELPER_MODE, PROMPT_HELPER_MODES, type PromptHelperMode } from '../../../src/config/enums.ts';
import type { PromptHelperResult } from '../../../src/services/schemas/media.ts';
import { derivePrompt, PROMPT_PURPOSES, PromptHelperInputError, promptHelperRequest, type PromptPurpose } from '../render/prompt-helper.ts';
import { stripQuotes } from '../../../src/lib/strip-quotes.ts';
import type { RenderInputImage } from '../render/provider.ts';
import { RenderRejectedError } from '../render/render-errors.ts';
import { checkUpload } from '../render/uploads.ts';
import { PROMPT_MAX_LENGTH } from '../config.ts';
import { HttpError, ok } from './http.ts';
import { resolvePictureLink } from './image-inputs.ts';
import type { MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import { readMultipart, single, type MultipartBody } from './multipart-body.ts';
import { uploadRule } from './uploads.ts';

const MODES = PROMPT_HELPER_MODES.map((mode) => mode.value) as readonly string[];
/** The media the helper may be given (SPEC §5: the web app sends a video for video tools). */
const MEDIA_FIELDS = ['image_url', 'video_url', 'image_file', 'video_file'] as const;

/**
 * POST text/prompt (SPEC §7, §9 prompt helper modes): suggest, refine, guess from a picture or
 * inspire, derived from the inputs by the local stand-in; no credits (the Text tier costs 0).
 */
export async function textRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { auth, engine, provider } = deps;

  /** The picture to describe: a stored file (image_url) or one sent with the call (image_file). */
  async function withPicture<T>(
    body: MultipartBody,
    user: Parameters<typeof resolvePictureLink>[1],
    use: (input: RenderInputImage | null) => Promise<T>,
  ): Promise<T> {
    const link = single(body, 'image_url');
    if (link) {
      const file = await resolvePictureLink(deps, user, link, 'image_url', { picturesOnly: true, required: true });
      return use(file ? { path: await engine.store.localPath(file), contentType: file.content_type, field: 'image_url' } : null);
    }
    const upload = body.files.find((file) => file.field === 'image_file');
    if (!upload) return use(null);
    const check = await checkUpload('image', upload.data, upload.fileName, upload.mimeType);
    if (!check.ok) throw new HttpError(415, DETAILS.fileTypeRefused('image', check.reason));
    const folder = await mkdtemp(path.join(tmpdir(), 'kinora-prompt-'));
    try {
      const shown = check.display ?? { data: upload.data, contentType: check.contentType };
      const filePath = path.join(folder, 'picture');
      await writeFile(filePath, shown.data);
      return await use({ path: filePath, contentType: shown.contentType, field: 'image_file' });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /**
   * A video given to the helper: checked like any input (a Kinora file the caller may use, or a
   * real video file), then only its presence counts. Describing video frames is not done yet, so
   * Guess from picture refuses it with a clear message; the other modes work from the text.
   */
  async function checkVideo(body: MultipartBody, user: Parameters<typeof resolvePictureLink>[1]): Promise<boolean> {
    const link = single(body, 'video_url');
    if (link) {
      const file = await resolvePictureLink(deps, user, link, 'video_url', { picturesOnly: false, required: true });
      if (!file?.content_type.startsWith('video/')) throw new HttpError(400, 'video_url is not a video.');
      return true;
    }
    const upload = body.files.find((file) => file.field === 'video_file');
    if (!upload) return false;
    const check = await checkUpload('video', upload.data, upload.fileName, upload.mimeType);
    if (!check.ok) throw new HttpError(415, DETAILS.fileTypeRefused('video', check.reason));
    return true;
  }

  app.post('/text/prompt', async (request): Promise<{ data: PromptHelperResult }> => {
    const user = await auth.requireUser(request);
    const body = await readMultipart(request, { files: { image_file: uploadRule('image'), video_file: uploadRule('video') } });
    // An empty field is a field the form left blank, not a second picture.
    const given = MEDIA_FIELDS.filter(
      (field) => body.fields[field]?.some((value) => value.trim() !== '') || body.files.some((file) => file.field === field),
    );
    if (given.length > 1) throw new HttpError(400, `Send one of ${MEDIA_FIELDS.join(', ')}, not ${given.join(' and ')}.`);
    const option = (single(body, 'option') || DEFAULT_PROMPT_HELPER_MODE) as PromptHelperMode;
    if (!MODES.includes(option)) throw new HttpError(400, `option must be one of ${MODES.join(', ')}.`);
    const purpose = (single(body, 'mode') || 'image') as PromptPurpose;
    if (!(PROMPT_PURPOSES as readonly string[]).includes(purpose)) {
      throw new HttpError(400, `mode must be one of ${PROMPT_PURPOSES.join(', ')}.`);
    }
    const prompt = (single(body, 'prompt') ?? '').trim();
    if (prompt.length > PROMPT_MAX_LENGTH) throw new HttpError(400, `prompt can be at most ${PROMPT_MAX_LENGTH} characters.`);
    if ((await checkVideo(body, user)) && option === 'Image2Prompt') throw new HttpError(400, DETAILS.videoNotDescribed);

    const result = await withPicture(body, user, async (picture) => {
      let description: string | null = null;
      if (picture && option === 'Image2Prompt') {
        try {
          description = await provider.describeImage(picture);
        } catch (error) {
          if (error instanceof RenderRejectedError) throw new HttpError(400, error.message);
          throw error;
        }
      }
      try {
        // A provider with a language model (fal) writes the prompt; without one Kinora's own
        // deterministic helper does. Refine needs words to refine either way.
        if (provider.writeText && option !== 'Image2Prompt' && !(option === 'RefinePrompt' && prompt === '')) {
          try {
            return stripQuotes((await provider.writeText(promptHelperRequest(option, prompt, purpose))).trim());
          } catch (error) {
            if (error instanceof RenderRejectedError) throw new HttpError(502, error.message);
            throw error;
          }
        }
        return derivePrompt({ option, prompt, mode: purpose, imageDescription: description });
      } catch (error) {
        if (error instanceof PromptHelperInputError) throw new HttpError(400, error.message);
        throw error;
      }
    });
    return ok({ mode: option, prompt: result });
  });
}
