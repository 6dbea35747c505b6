import { assign, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import { STORY_TEXTS } from '@/config/story-texts';
import { saveFile } from '@/lib/save-file';
import type { ZipEntry } from '@/lib/story-export/zip';
import { downloadFile, FileDownloadError } from '@/services/file-download';
import { exportFile, timelineFormats, type ExportSource, type StoryExport } from '@/machines/story/story-export';

/**
 * The AI Story export's zip (issue 21, Kinora's), a child the story wizard invokes for its whole
 * life (systemId `storyExport`, shown in the inspector):
 *
 *   idle → downloading (one file after another, with progress) → zipping → saved
 *                ↘ failed —retry→ downloading (the files already downloaded are kept)
 *
 * The wizard sends the export (the cut and the signed links of its media) with `zip.start` and
 * `zip.retry`; the zip holds the timeline files (OTIO, EDL, SRT with a narration) and the media
 * under media/, the names the timelines give them. A cancel drops what was downloaded.
 */

export interface FetchedFile {
  mediaId: string;
  data: Uint8Array;
}

interface StoryExportContext {
  exported: StoryExport | null;
  /** The files downloaded so far, by their name inside the zip. */
  files: Record<string, FetchedFile>;
  /** The file being downloaded: bytes come so far and its size when known. */
  loaded: number;
  total: number | null;
  /** Why the last download or the zip failed. */
  error: string | null;
  /** The zip's name once it was offered. */
  savedAs: string | null;
}

export type StoryExportEvent =
  | { type: 'zip.start'; exported: StoryExport }
  /** After a failure: again, with the story's links as they are now, keeping every file already downloaded. */
  | { type: 'zip.retry'; exported: StoryExport }
  | { type: 'zip.cancel' };

/** What the download of one file tells the machine. */
type FetchEvent =
  | { type: 'zip.progress'; loaded: number; total: number | null }
  | { type: 'zip.fetched'; name: string; mediaId: string; data: Uint8Array }
  | { type: 'zip.failed'; message: string };

const TEXTS = STORY_TEXTS.export;

/** The next file the zip still needs, or undefined when every one is there. */
const nextSource = (context: Pick<StoryExportContext, 'exported' | 'files'>): ExportSource | undefined =>
  context.exported?.sources.find((source) => context.files[source.name]?.mediaId !== source.mediaId);

/** The files kept for an export: those already downloaded that are still the same job's result. */
const keptFiles = (files: Record<string, FetchedFile>, exported: StoryExport): Record<string, FetchedFile> =>
  Object.fromEntries(exported.sources.flatMap((source) => (files[source.name]?.mediaId === source.mediaId ? [[source.name, files[source.name] as FetchedFile]] : [])));

/** The zip's name: the story's title. */
const zipNameOf = (exported: StoryExport): string => `${exported.base}.zip`;

/** The zip's entries: the timeline files, then the media as downloaded. */
export function zipEntries(exported: StoryExport, files: Record<string, FetchedFile>): ZipEntry[] {
  const encoder = new TextEncoder();
  const timelines = timelineFormats(exported).map((format) => {
    const file = exportFile(exported, format);
    return { name: file.name, data: encoder.encode(file.text) };
  });
  const media = exported.sources.map((source) => {
    const file = files[source.name];
    if (!file) throw new Error(`${source.name} was not downloaded`);
    return { name: source.name, data: file.data };
  });
  return [...timelines, ...media];
}

const reasonOf = (error: unknown): string => (error instanceof Error && error.message ? error.message : 'unknown error');

export const storyExportMachine = setup({
  types: {
    context: {} as StoryExportContext,
    events: {} as StoryExportEvent | FetchEvent,
  },
  actors: {
    /** One file through its signed link, its progress and its bytes sent back. */
    fetchFile: fromCallback<EventObject, { source: ExportSource | undefined }>(({ input, sendBack }) => {
      const controller = new AbortController();
      const { source } = input;
      if (!source) return undefined;
      downloadFile(source.url, { signal: controller.signal, onProgress: (progress) => sendBack({ type: 'zip.progress', ...progress } satisfies FetchEvent) })
        .then((data) => sendBack({ type: 'zip.fetched', name: source.name, mediaId: source.mediaId, data } satisfies FetchEvent))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          const reason = error instanceof FileDownloadError ? error.message : reasonOf(error);
          sendBack({ type: 'zip.failed', message: TEXTS.failed(source.name.split('/').at(-1) ?? source.name, reason) } satisfies FetchEvent);
        });
      return () => controller.abort();
    }),
    /** The zip made from the timelines and the downloaded media, offered as a download. */
    saveZip: fromPromise<string, { exported: StoryExport; files: Record<string, FetchedFile> }>(async ({ input }) => {
      // The zip's code (fflate) is fetched when a zip is asked for, not with the story page.
      const { buildZip } = await import('@/lib/story-export/zip');
      const name = zipNameOf(input.exported);
      saveFile(name, buildZip(zipEntries(input.exported, input.files)), 'application/zip');
      return name;
    }),
  },
  guards: {
    hasAllFiles: ({ context }) => nextSource(context) === undefined,
  },
  actions: {
    startExport: assign(({ event }) => (event.type === 'zip.start' ? { exported: event.exported, files: {}, loaded: 0, total: null, error: null, savedAs: null } : {})),
    retryExport: assign(({ context, event }) =>
      event.type === 'zip.retry' ? { exported: event.exported, files: keptFiles(context.files, event.exported), loaded: 0, total: null, error: null } : {},
    ),
    takeProgress: assign(({ event }) => (event.type === 'zip.progress' ? { loaded: event.loaded, total: event.total } : {})),
    takeFile: assign(({ context, event }) =>
      event.type === 'zip.fetched' ? { files: { ...context.files, [event.name]: { mediaId: event.mediaId, data: event.data } }, loaded: 0, total: null } : {},
    ),
    setFailure: assign(({ event }) => (event.type === 'zip.failed' ? { error: event.message } : {})),
    dropFiles: assign({ exported: null, files: {}, loaded: 0, total: null, error: null }),
  },
}).createMachine({
  id: 'storyExport',
  context: { exported: null, files: {}, loaded: 0, total: null, error: null, savedAs: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'zip.start': { target: 'downloading', actions: 'startExport' } },
    },
    downloading: {
      always: { guard: 'hasAllFiles', target: 'zipping' },
      invoke: {
        src: 'fetchFile',
        input: ({ context }) => ({ source: nextSource(context) }),
      },
      on: {
        'zip.progress': { actions: 'takeProgress' },
        'zip.fetched': { target: 'downloading', reenter: true, actions: 'takeFile' },
        'zip.failed': { target: 'failed', actions: 'setFailure' },
        'zip.cancel': { target: 'idle', actions: 'dropFiles' },
      },
    },
    zipping: {
      invoke: {
        src: 'saveZip',
        input: ({ context }) => ({ exported: context.exported as StoryExport, files: context.files }),
        onDone: { target: 'saved', actions: assign(({ event }) => ({ savedAs: event.output, files: {}, loaded: 0, total: null })) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: TEXTS.zipFailed(reasonOf(event.error)) })) },
      },
    },
    failed: {
      on: {
        'zip.retry': { target: 'downloading', actions: 'retryExport' },
        'zip.cancel': { target: 'idle', actions: 'dropFiles' },
      },
    },
    saved: {
      on: { 'zip.start': { target: 'downloading', actions: 'startExport' } },
    },
  },
});
