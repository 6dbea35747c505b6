import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';
import type { PromptHelperMode } from '@/config/enums';
import { errorMessageOf } from '@/services/api-error';
import { promptHelper } from '@/services/text';
import type { PromptHelperRequest, PromptPurpose } from '@/services/text';

export type { PromptPurpose } from '@/services/text';

/**
 * The picture (or video) a prompt is guessed from: a URL when the media has one, the file itself
 * when it is local (SPEC §5). `kind` says which field it goes in; by default a file's MIME type
 * decides, and a URL counts as an image.
 */
export type PromptHelperImage = { url: string; kind?: 'image' | 'video' } | { file: File; kind?: 'image' | 'video' };

export interface PromptHelpRequest {
  option: PromptHelperMode;
  prompt: string;
  mode: PromptPurpose;
  image?: PromptHelperImage;
}

export interface PromptHelperContext {
  /** The request running or last run. */
  option: PromptHelperMode | null;
  /** The last prompt the helper suggested. */
  lastPrompt: string | null;
  /** Why the last request failed, shown under the prompt field. */
  error: string | null;
}

export type PromptHelperEvent =
  | ({ type: 'prompt.help' } & PromptHelpRequest)
  | { type: 'prompt.dismissError' };

/** Listened to with `actor.on`: the text to put in the prompt field. */
export type PromptHelperEmitted = { type: 'prompt.suggested'; prompt: string; option: PromptHelperMode };

/** The service request for a help event: which of image_url, image_file, video_url, video_file is sent. */
export function toPromptHelperRequest(request: PromptHelpRequest): PromptHelperRequest {
  const base: PromptHelperRequest = { option: request.option, prompt: request.prompt, mode: request.mode };
  const { image } = request;
  if (!image) return base;
  if ('file' in image) {
    const kind = image.kind ?? (image.file.type.startsWith('video/') ? 'video' : 'image');
    return kind === 'video' ? { ...base, videoFile: image.file } : { ...base, imageFile: image.file };
  }
  return image.kind === 'video' ? { ...base, videoUrl: image.url } : { ...base, imageUrl: image.url };
}

/**
 * The prompt helpers beside every prompt field (SPEC §7 `text/prompt`: Suggest, Refine, Guess from
 * picture, Inspire me): idle → requesting → idle. A result is emitted as `prompt.suggested`; a
 * failure is kept as `error` and nothing is emitted. A new request replaces one still running.
 */
export const promptHelperMachine = setup({
  types: {
    context: {} as PromptHelperContext,
    events: {} as PromptHelperEvent,
    emitted: {} as PromptHelperEmitted,
  },
  actors: {
    askHelper: fromPromise<string, PromptHelpRequest>(async ({ input, signal }) =>
      (await promptHelper({ ...toPromptHelperRequest(input), signal })).prompt,
    ),
  },
  actions: {
    startRequest: assign(({ event }) => {
      assertEvent(event, 'prompt.help');
      return { option: event.option, error: null };
    }),
    storePrompt: assign((_, params: { prompt: string }) => ({ lastPrompt: params.prompt })),
    suggest: emit(({ context }, params: { prompt: string }) => ({
      type: 'prompt.suggested' as const,
      prompt: params.prompt,
      option: context.option ?? 'InspireMe',
    })),
    storeError: assign((_, params: { error: unknown }) => ({
      error: errorMessageOf(params.error),
    })),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'promptHelper',
  context: { option: null, lastPrompt: null, error: null },
  initial: 'idle',
  on: {
    'prompt.dismissError': { actions: 'clearError' },
  },
  states: {
    idle: {
      on: { 'prompt.help': { target: 'requesting', actions: 'startRequest' } },
    },
    requesting: {
      invoke: {
        src: 'askHelper',
        input: ({ event }) => {
          assertEvent(event, 'prompt.help');
          return { option: event.option, prompt: event.prompt, mode: event.mode, image: event.image };
        },
        onDone: {
          target: 'idle',
          actions: [
            { type: 'storePrompt', params: ({ event }) => ({ prompt: event.output }) },
            { type: 'suggest', params: ({ event }) => ({ prompt: event.output }) },
          ],
        },
        onError: { target: 'idle', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
      on: { 'prompt.help': { target: 'requesting', reenter: true, actions: 'startRequest' } },
    },
  },
});
