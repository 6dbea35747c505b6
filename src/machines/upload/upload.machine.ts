import { assertEvent, assign, fromCallback, setup } from 'xstate';
import type { MediaKind } from '@/config/enums';
import { validateUpload } from '@/lib/upload-validation';
import { errorMessageOf } from '@/services/api-error';
import { uploadMediaFile } from '@/services/media';
import type { Media } from '@/services/schemas/media';

export type { Media } from '@/services/schemas/media';

export interface UploadInput {
  kind: MediaKind;
}

export interface UploadContext {
  kind: MediaKind;
  file: File | null;
  /** The name as chosen, and the safe name it is sent under (SPEC §5). */
  fileName: string | null;
  safeName: string | null;
  size: number | null;
  /** 0…1 of the bytes sent. */
  progress: number;
  error: string | null;
  media: Media | null;
}

export type UploadUiEvent =
  | { type: 'upload.select'; file: File }
  | { type: 'upload.cancel' }
  | { type: 'upload.clear' }
  | { type: 'upload.retry' }
  /** A result the person already has (e.g. chosen from an asset): done at once, nothing sent. */
  | { type: 'upload.useExisting'; media: Media; itemIndex?: number; name?: string };

/** What the upload actor reports back. */
export type UploadProgressEvent =
  | { type: 'upload.progress'; fraction: number }
  | { type: 'upload.succeeded'; media: Media }
  | { type: 'upload.failed'; message: string };

export type UploadEvent = UploadUiEvent | UploadProgressEvent;

interface SendInput {
  kind: MediaKind;
  file: File;
  safeName: string;
}

/**
 * The upload actor around one upload call: progress and the answer come back as events; stopping
 * it (cancel, clear) aborts the request. Built from the call so tests provide a fake one.
 */
export const uploadFileActor = (upload: typeof uploadMediaFile) =>
  fromCallback<UploadEvent, SendInput>(({ input, sendBack }) => {
    const controller = new AbortController();
    // Sent under its safe name; the bytes and the type stay the file's own.
    const file = new File([input.file], input.safeName, { type: input.file.type });
    upload(input.kind, file, {
      signal: controller.signal,
      onProgress: (fraction) => sendBack({ type: 'upload.progress', fraction }),
    }).then(
      (media) => sendBack({ type: 'upload.succeeded', media }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        sendBack({ type: 'upload.failed', message: errorMessageOf(error) });
      },
    );
    return () => controller.abort();
  });

const EMPTY_FILE = { file: null, fileName: null, safeName: null, size: null, progress: 0, error: null, media: null };

/**
 * One picture, video or sound picked for upload (SPEC §5, §7 `POST image|video|audio`):
 * idle → validating (type and size, before a byte is sent) → rejected | uploading (progress; cancel
 * aborts the request and goes back to idle) → done (media, its first item's URL) | failed (retry).
 */
export const uploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as UploadEvent,
    input: {} as UploadInput,
  },
  actors: {
    sendFile: uploadFileActor(uploadMediaFile),
  },
  guards: {
    isValid: ({ context }) => context.error === null,
  },
  actions: {
    takeFile: assign(({ context, event }) => {
      assertEvent(event, 'upload.select');
      const { file } = event;
      const check = validateUpload(file, context.kind);
      return {
        ...EMPTY_FILE,
        file,
        fileName: file.name,
        size: file.size,
        safeName: check.ok ? check.safeName : null,
        error: check.ok ? null : check.message,
      };
    }),
    setProgress: assign(({ event }) => {
      assertEvent(event, 'upload.progress');
      return { progress: event.fraction };
    }),
    storeMedia: assign(({ event }) => {
      assertEvent(event, 'upload.succeeded');
      return { media: event.media, progress: 1 };
    }),
    storeError: assign(({ event }) => {
      assertEvent(event, 'upload.failed');
      return { error: event.message };
    }),
    useExisting: assign(({ event }) => {
      assertEvent(event, 'upload.useExisting');
      const item = event.media.items[event.itemIndex ?? 0];
      // The chosen result becomes the media's first item, which is what the field shows and sends.
      return {
        ...EMPTY_FILE,
        fileName: event.name ?? (event.media.title || null),
        progress: 1,
        media: { ...event.media, items: item ? [item] : [] },
      };
    }),
    restart: assign({ progress: 0, error: null }),
    clear: assign(EMPTY_FILE),
  },
}).createMachine({
  id: 'upload',
  context: ({ input }) => ({ kind: input.kind, ...EMPTY_FILE }),
  initial: 'idle',
  on: {
    'upload.select': { target: '.validating', actions: 'takeFile' },
    // Leaving `uploading` stops its actor, which aborts a request on its way.
    'upload.useExisting': { target: '.done', actions: 'useExisting' },
  },
  states: {
    idle: {},
    validating: {
      always: [{ guard: 'isValid', target: 'uploading' }, { target: 'rejected' }],
    },
    rejected: {
      on: { 'upload.clear': { target: 'idle', actions: 'clear' } },
    },
    uploading: {
      invoke: {
        src: 'sendFile',
        input: ({ context }) => ({
          kind: context.kind,
          file: context.file as File,
          safeName: context.safeName ?? '',
        }),
      },
      on: {
        'upload.progress': { actions: 'setProgress' },
        'upload.succeeded': { target: 'done', actions: 'storeMedia' },
        'upload.failed': { target: 'failed', actions: 'storeError' },
        // Leaving the state stops the actor, which aborts the request.
        'upload.cancel': { target: 'idle', actions: 'clear' },
      },
    },
    done: {
      on: { 'upload.clear': { target: 'idle', actions: 'clear' } },
    },
    failed: {
      on: {
        'upload.retry': { target: 'uploading', actions: 'restart' },
        'upload.clear': { target: 'idle', actions: 'clear' },
      },
    },
  },
});
