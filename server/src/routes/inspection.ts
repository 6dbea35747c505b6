import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { DEVELOPER_GROUP } from '../../../src/config/limits.ts';
import {
  JOB_LOG_MAX_BYTES,
  PROBLEM_REPORT_LIST_MAX,
  PROBLEM_REPORT_MAX_BYTES,
  jobLogUploadSchema,
  problemReportBundleSchema,
  type JobHistory,
  type JobHistoryEventKind,
  type JobLog,
  type JobLogSaved,
  type ProblemReportList,
  type ProblemReportSaved,
} from '../../../src/services/schemas/inspection.ts';
import {
  findJobLog,
  findProblemReport,
  insertProblemReport,
  jobLedgerRows,
  jobLogSaved,
  listProblemReports,
  saveJobLog,
  type JobLedgerRow,
} from '../db/inspection.ts';
import { findOwnMedia, type MediaRow } from '../db/media.ts';
import { redactJson } from '../lib/redact.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { DETAILS } from './messages.ts';
import type { RouteDeps } from './route-deps.ts';
import type { AuthUser } from './user-auth.ts';

/**
 * The QA inspector's calls (issue 22 items 1 and 5), Kinora's additions to SPEC §7:
 * - PUT/GET media/{id}/inspection-log: a job's inspector log, kept with the job for a week;
 * - GET media/{id}/history: the job as the server recorded it (row and ledger), as events;
 * - POST/GET problem-reports, GET problem-reports/{id}: "Report a problem" bundles kept on the
 *   server, in local mode only (elsewhere the routes do not exist: 404, and the web app only
 *   offers the file for download).
 * Everything stored goes through redactJson first. The job's owner only (another person's job is
 * unknown: 404, as for every media call).
 */

export interface InspectionRouteDeps extends RouteDeps {
  /** KINORA_LOCAL_MODE: problem reports are kept on the server only then. */
  localMode: boolean;
}

export const INSPECTION_DETAILS = {
  jobLogTooLarge: `The inspector log is too large: at most ${JOB_LOG_MAX_BYTES / 1024} KB can be saved with a job.`,
  problemReportTooLarge: `The problem report is too large: at most ${PROBLEM_REPORT_MAX_BYTES / (1024 * 1024)} MB can be sent.`,
  problemReportNotFound: 'This problem report does not exist.',
} as const;

/** A problem report's title when it has neither a job nor a note. */
export const DEFAULT_REPORT_TITLE = 'Problem report';
const TITLE_MAX = 120;

/** Byte size of a value as it is stored (JSON text). */
const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/**
 * "Text to Image · failed" from the bundle's job (its tool's title or slug, its status or outcome),
 * else the note's first line, else "Problem report".
 */
export function problemReportTitle(bundle: { job?: Record<string, unknown> | null; note?: unknown }): string {
  const tool = text(bundle.job?.toolTitle) ?? text(bundle.job?.tool);
  const status = text(bundle.job?.status) ?? text(bundle.job?.outcome);
  const noteLine = text(typeof bundle.note === 'string' ? bundle.note.split(/\r?\n/).find((line) => line.trim() !== '') : null);
  const title = tool ? [tool, status].filter(Boolean).join(' · ') : (noteLine ?? DEFAULT_REPORT_TITLE);
  return title.length > TITLE_MAX ? `${title.slice(0, TITLE_MAX - 1)}…` : title;
}

type HistoryEvent = JobHistory['events'][number];

/** Where each kind sits in a job's life, for events recorded at the same moment. */
const EVENT_ORDER: readonly JobHistoryEventKind[] = ['queued', 'charged', 'attempt', 'finished', 'refunded', 'log-saved'];

const credits = (amount: number): string => `${amount} credit${amount === 1 ? '' : 's'}`;

/**
 * The job's events in time order, from its row, its ledger rows and its saved log. A ledger row's
 * time is its transaction's start (now()) while the row's times are clock_timestamp(), so the debit
 * can read a moment before the job's creation and the refund before its end, in the very
 * transaction that made both: each is ordered no earlier than what it follows (the times
 * answered are the recorded ones).
 */
export function jobHistoryEvents(row: MediaRow, ledger: readonly JobLedgerRow[], log: { saved_at: Date; bytes: number } | null): HistoryEvent[] {
  const events: { at: Date; after: Date; kind: JobHistoryEventKind; detail: string }[] = [];
  const add = (at: Date, kind: JobHistoryEventKind, detail: string, after: Date = at): void => {
    events.push({ at, after: after > at ? after : at, kind, detail });
  };
  add(row.created_at, 'queued', [row.tool, row.option].filter(Boolean).join(' · '));
  for (const entry of ledger) {
    if (entry.kind === 'debit') add(entry.created_at, 'charged', `${credits(-entry.amount)}: ${entry.reason}`, row.created_at);
  }
  const ended = row.finished_at ?? row.updated_at;
  if (row.attempts > 1) {
    add(ended, 'attempt', `claimed ${row.attempts} times: a worker stopped or handed the job back before it ended`);
  }
  if (row.finished_at) add(row.finished_at, 'finished', row.error ? `${row.status}: ${row.error}` : row.status);
  for (const entry of ledger) {
    if (entry.kind === 'refund') add(entry.created_at, 'refunded', `${credits(entry.amount)}: ${entry.reason}`, row.finished_at ?? row.created_at);
  }
  if (log) add(log.saved_at, 'log-saved', `${log.bytes} bytes`);
  events.sort((a, b) => a.after.getTime() - b.after.getTime() || EVENT_ORDER.indexOf(a.kind) - EVENT_ORDER.indexOf(b.kind));
  return events.map(({ at, kind, detail }) => ({ at: at.toISOString(), kind, detail }));
}

/** Fastify's refusal of a body over the route's bodyLimit, said in this call's words. */
const isBodyTooLarge = (error: FastifyError): boolean => error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413;

export async function inspectionRoutes(app: FastifyInstance, deps: InspectionRouteDeps): Promise<void> {
  const { db, auth } = deps;

  // The caller (and, for a job's log, the job) is known before the body is read: an anonymous
  // call or another person's job is refused before up to 256 KB or 1 MB are received.
  const callers = new WeakMap<FastifyRequest, AuthUser>();
  const caller = async (request: FastifyRequest): Promise<AuthUser> => callers.get(request) ?? (await auth.requireUser(request));

  async function ownMedia(request: FastifyRequest, user: AuthUser): Promise<MediaRow> {
    const { id } = request.params as { id: string };
    const row = await findOwnMedia(db, id, user.sub);
    if (!row) throw new HttpError(404, DETAILS.notFound);
    return row;
  }

  await app.register(async (scope) => {
    // Thrown again, an error reaches the app's handler (app.ts), which answers it as `{ detail }`.
    scope.setErrorHandler((error: FastifyError, request) => {
      if (!(error instanceof HttpError) && isBodyTooLarge(error)) {
        const url = request.routeOptions.url ?? '';
        throw new HttpError(413, url.endsWith('/inspection-log') ? INSPECTION_DETAILS.jobLogTooLarge : INSPECTION_DETAILS.problemReportTooLarge);
      }
      throw error;
    });

    scope.put<{ Params: { id: string } }>(
      '/media/:id/inspection-log',
      {
        bodyLimit: JOB_LOG_MAX_BYTES,
        onRequest: async (request) => {
          const user = await auth.requireUser(request);
          await ownMedia(request, user);
          callers.set(request, user);
        },
      },
      async (request): Promise<{ data: JobLogSaved }> => {
        const user = await caller(request);
        const row = await ownMedia(request, user);
        const upload = parseInput(jobLogUploadSchema, request.body);
        const log = redactJson(upload.messages === undefined ? { records: upload.records } : upload);
        const bytes = jsonBytes(log);
        const saved = await saveJobLog(db, { mediaId: row.id, userSub: user.sub, log, bytes });
        return ok({ media_id: row.id, saved_at: saved.saved_at.toISOString(), bytes });
      },
    );

    scope.get<{ Params: { id: string } }>('/media/:id/inspection-log', async (request): Promise<{ data: JobLog }> => {
      const user = await auth.requireUser(request);
      const row = await ownMedia(request, user);
      const found = await findJobLog(db, row.id, user.sub);
      if (!found) throw new HttpError(404, DETAILS.notFound);
      const { records, messages } = found.log;
      return ok({
        saved_at: found.saved_at.toISOString(),
        records: records as JobLog['records'],
        ...(messages === undefined ? {} : { messages }),
      });
    });

    scope.get<{ Params: { id: string } }>('/media/:id/history', async (request): Promise<{ data: JobHistory }> => {
      const user = await auth.requireUser(request);
      const row = await ownMedia(request, user);
      const [ledger, log] = await Promise.all([jobLedgerRows(db, row.id, user.sub), jobLogSaved(db, row.id)]);
      return ok({
        media_id: row.id,
        tool: row.tool,
        option: row.option,
        endpoint: row.endpoint,
        status: row.status,
        progress: row.progress,
        cost: row.cost,
        charged: row.charged,
        attempts: row.attempts,
        error: row.error,
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
        finished_at: row.finished_at?.toISOString() ?? null,
        events: jobHistoryEvents(row, ledger, log),
      });
    });

    if (!deps.localMode) return;

    /** Developers see every report; anyone else their own. */
    const reportOwner = (user: AuthUser): string | null => (user.groups.includes(DEVELOPER_GROUP) ? null : user.sub);

    scope.post(
      '/problem-reports',
      {
        bodyLimit: PROBLEM_REPORT_MAX_BYTES,
        onRequest: async (request) => {
          callers.set(request, await auth.requireUser(request));
        },
      },
      async (request, reply): Promise<{ data: ProblemReportSaved }> => {
        const user = await caller(request);
        const bundle = redactJson(parseInput(problemReportBundleSchema, request.body)) as Parameters<typeof problemReportTitle>[0];
        const saved = await db.transaction((tx) =>
          insertProblemReport(tx, { userSub: user.sub, title: problemReportTitle(bundle), bundle, bytes: jsonBytes(bundle) }),
        );
        reply.code(201);
        return ok({ id: saved.id, created_at: saved.created_at.toISOString(), title: saved.title });
      },
    );

    scope.get('/problem-reports', async (request): Promise<{ data: ProblemReportList }> => {
      const user = await auth.requireUser(request);
      const rows = await listProblemReports(db, reportOwner(user), PROBLEM_REPORT_LIST_MAX);
      return ok({ reports: rows.map((row) => ({ id: row.id, title: row.title, created_at: row.created_at.toISOString(), bytes: row.bytes })) });
    });

    scope.get<{ Params: { id: string } }>('/problem-reports/:id', async (request): Promise<{ data: unknown }> => {
      const user = await auth.requireUser(request);
      const bundle = await findProblemReport(db, request.params.id, reportOwner(user));
      if (bundle === null) throw new HttpError(404, INSPECTION_DETAILS.problemReportNotFound);
      return ok(bundle);
    });
  });
}
