import { z } from 'zod';
import { inspectionRecordSchema } from '../../lib/inspection-record';

/**
 * The QA inspector's server calls (issue 22 items 1 and 5), Kinora's additions to SPEC §7: a
 * finished job's recorded inspector log, kept with the job for a week; the job's server-side
 * history; and, in local mode, problem reports kept on the server. Shared with the server
 * (server/src/routes/inspection.ts), which may import src/services/schemas but not
 * src/lib/inspection: the record shape is the web app's own `inspectionRecordSchema`, from
 * src/lib/inspection-record.ts, which both sides import.
 */

/** Largest body of PUT media/{id}/inspection-log. */
export const JOB_LOG_MAX_BYTES = 256 * 1024;
/** Largest body of POST problem-reports. */
export const PROBLEM_REPORT_MAX_BYTES = 1024 * 1024;
/** How long a job's log is kept (and answered) after it was saved. */
export const JOB_LOG_RETENTION_DAYS = 7;
/** How many problem reports the server keeps (the oldest go first). */
export const PROBLEM_REPORTS_KEPT = 200;
/** How many GET problem-reports lists, newest first. */
export const PROBLEM_REPORT_LIST_MAX = 50;

export const PROBLEM_REPORT_SCHEMA = 'kinora.problem-report';
export const PROBLEM_REPORT_VERSION = 1;

/** One inspector record as sent and stored: the web app's own schema (src/lib/inspection-record.ts). */
export const inspectionRecordWireSchema = inspectionRecordSchema;
export type InspectionRecordWire = z.infer<typeof inspectionRecordWireSchema>;

/** PUT media/{id}/inspection-log: the job's records and, for the sequence view, its messages. */
export const jobLogUploadSchema = z.object({
  records: z.array(inspectionRecordWireSchema),
  messages: z.array(z.unknown()).optional(),
});

/** What PUT media/{id}/inspection-log answers. */
export const jobLogSavedSchema = z.object({ media_id: z.string(), saved_at: z.string(), bytes: z.number() });
export type JobLogSaved = z.infer<typeof jobLogSavedSchema>;

/** GET media/{id}/inspection-log: the saved log, redacted as the server stored it. */
export const jobLogSchema = z.object({
  saved_at: z.string(),
  records: z.array(inspectionRecordWireSchema),
  messages: z.array(z.unknown()).optional(),
});
export type JobLog = z.infer<typeof jobLogSchema>;

export const JOB_HISTORY_EVENT_KINDS = ['queued', 'charged', 'attempt', 'finished', 'refunded', 'log-saved'] as const;
export type JobHistoryEventKind = (typeof JOB_HISTORY_EVENT_KINDS)[number];

/** GET media/{id}/history: the job as the server recorded it, its events in time order. */
export const jobHistorySchema = z.object({
  media_id: z.string(),
  tool: z.string(),
  option: z.string().nullable(),
  endpoint: z.string().nullable(),
  status: z.string(),
  progress: z.number(),
  cost: z.number(),
  charged: z.boolean(),
  attempts: z.number(),
  error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
  events: z.array(z.object({ at: z.string(), kind: z.enum(JOB_HISTORY_EVENT_KINDS), detail: z.string() })),
});
export type JobHistory = z.infer<typeof jobHistorySchema>;

const looseRecord = z.record(z.string(), z.unknown());

/**
 * A "Report a problem" bundle (issue 22 item 5): the file the web app offers for download and, in
 * local mode, POSTs to problem-reports. Only its frame is checked here; the parts stay free-form.
 */
export const problemReportBundleSchema = z.looseObject({
  schema: z.literal(PROBLEM_REPORT_SCHEMA),
  version: z.literal(PROBLEM_REPORT_VERSION),
  createdAt: z.string(),
  note: z.string().optional(),
  app: looseRecord,
  browser: looseRecord,
  job: looseRecord.nullable().optional(),
  /** GET media/{id}/history's answer, or what the browser says instead (it could not be read). */
  serverHistory: z.unknown().optional(),
  log: z.looseObject({ records: z.array(z.unknown()), messages: z.array(z.unknown()).optional() }),
});

/** What POST problem-reports answers (201). */
export const problemReportSavedSchema = z.object({ id: z.string(), created_at: z.string(), title: z.string() });
export type ProblemReportSaved = z.infer<typeof problemReportSavedSchema>;

/** GET problem-reports: the newest reports first, at most PROBLEM_REPORT_LIST_MAX. */
export const problemReportListSchema = z.object({
  reports: z.array(z.object({ id: z.string(), title: z.string(), created_at: z.string(), bytes: z.number() })),
});
export type ProblemReportList = z.infer<typeof problemReportListSchema>;
