import { assign, fromPromise, setup } from 'xstate';
import { STORAGE_KEYS } from '@/config/limits';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { APP_VERSION } from '@/config/version';
import type { InspectionHub, InspectionRecord } from '@/lib/inspection/hub';
import {
  buildProblemReport,
  problemReportFileName,
  recordsForJob,
  type ProblemReport,
  type ReportEnvironment,
  type ReportJob,
} from '@/lib/inspection/problem-report';
import { savedJobRecords } from '@/lib/inspection/saved-job-logs';
import { saveFile } from '@/lib/save-file';
import { isLocalMode } from '@/machines/inspector/inspector-access';
import { fetchJobHistory, sendProblemReport } from '@/services/inspection';
import { readStored, storedSecrets } from '@/services/storage';

/**
 * "Report a problem" (issue 22 item 5), from a failed job's row or from the inspector: the person
 * may say what happened; the report is put together (the job's history is asked of the server),
 * offered as a download and, on a local Kinora, also kept in the server's report list.
 */
export interface ProblemReportInput {
  hub: InspectionHub;
  /** The job it is about (a job row); null from the inspector, which reports what it shows. */
  job: ReportJob | null;
  /** The records to report instead of the job's (the inspector's view: live or a loaded log). */
  records?: readonly InspectionRecord[];
  messages?: readonly unknown[];
  /** Whether the server keeps reports (a local Kinora); defaults to the app's mode. */
  local?: boolean;
}

export interface ProblemReportContext {
  hub: InspectionHub;
  job: ReportJob | null;
  records: readonly InspectionRecord[] | null;
  messages: readonly unknown[] | null;
  local: boolean;
  note: string;
  report: ProblemReport | null;
  fileName: string | null;
  /** The server's id of the kept report. */
  sentId: string | null;
  error: string | null;
}

export type ProblemReportEvent =
  | { type: 'report.editNote'; text: string }
  | { type: 'report.create' }
  | { type: 'report.retrySend' };

const environment = (local: boolean): ReportEnvironment => ({
  appVersion: APP_VERSION,
  mode: local ? 'local' : 'hosted',
  path: typeof window === 'undefined' ? '' : window.location.pathname,
  userAgent: typeof navigator === 'undefined' ? '' : navigator.userAgent,
  language: typeof navigator === 'undefined' ? '' : navigator.language,
  viewport: typeof window === 'undefined' ? { width: 0, height: 0 } : { width: window.innerWidth, height: window.innerHeight },
});

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Everything the report holds; a history the server cannot give is said so in the report. */
async function collect(context: ProblemReportContext): Promise<ProblemReport> {
  const { job } = context;
  let serverHistory: unknown = null;
  if (job?.mediaId) {
    try {
      serverHistory = await fetchJobHistory(job.mediaId);
    } catch (error) {
      serverHistory = { unavailable: messageOf(error) };
    }
  }
  const pageRecords = context.hub.records();
  const records =
    context.records ??
    (job ? recordsForJob(pageRecords, savedJobRecords(readStored(STORAGE_KEYS.jobLogs), Date.now(), { actorId: job.localId }), job, Date.now()) : pageRecords);
  const messages = context.messages ?? (job ? undefined : context.hub.messages());
  return buildProblemReport({
    note: context.note,
    environment: environment(context.local),
    job,
    serverHistory,
    records,
    ...(messages ? { messages } : {}),
    secrets: storedSecrets(),
  });
}

export const problemReportMachine = setup({
  types: {
    context: {} as ProblemReportContext,
    events: {} as ProblemReportEvent,
    input: {} as ProblemReportInput,
  },
  actors: {
    collect: fromPromise<ProblemReport, ProblemReportContext>(({ input }) => collect(input)),
    send: fromPromise<{ id: string }, ProblemReport>(({ input }) => sendProblemReport(input)),
  },
  actions: {
    editNote: assign({ note: ({ event }) => (event.type === 'report.editNote' ? event.text : '') }),
    takeReport: assign(({ event }) => {
      const report = (event as unknown as { output: ProblemReport }).output;
      return { report, fileName: problemReportFileName(report), error: null };
    }),
    download: ({ context }) => {
      if (context.report && context.fileName) saveFile(context.fileName, JSON.stringify(context.report, null, 2), 'application/json');
    },
    takeSentId: assign({ sentId: ({ event }) => (event as unknown as { output: { id: string } }).output.id, error: null }),
    showError: assign({
      error: ({ event }) => INSPECTOR_TEXTS.report.failed(messageOf((event as unknown as { error: unknown }).error)),
    }),
    showSendError: assign({
      error: ({ event }) => INSPECTOR_TEXTS.report.sendFailed(messageOf((event as unknown as { error: unknown }).error)),
    }),
  },
  guards: {
    keptByServer: ({ context }) => context.local,
  },
}).createMachine({
  id: 'problemReport',
  context: ({ input }) => ({
    hub: input.hub,
    job: input.job,
    records: input.records ?? null,
    messages: input.messages ?? null,
    local: input.local ?? isLocalMode(),
    note: '',
    report: null,
    fileName: null,
    sentId: null,
    error: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'report.editNote': { actions: 'editNote' },
        'report.create': 'collecting',
      },
    },
    collecting: {
      invoke: {
        src: 'collect',
        input: ({ context }) => context,
        onDone: [
          { guard: 'keptByServer', target: 'sending', actions: ['takeReport', 'download'] },
          { target: 'downloaded', actions: ['takeReport', 'download'] },
        ],
        onError: { target: 'editing', actions: 'showError' },
      },
    },
    sending: {
      invoke: {
        src: 'send',
        input: ({ context }) => context.report!,
        onDone: { target: 'sent', actions: 'takeSentId' },
        onError: { target: 'sendFailed', actions: 'showSendError' },
      },
    },
    sendFailed: {
      on: { 'report.retrySend': 'sending' },
    },
    downloaded: { type: 'final' },
    sent: { type: 'final' },
  },
});
