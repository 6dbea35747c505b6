import { z } from 'zod';
import type { InspectionRecord } from '@/lib/inspection/hub';
import { jsonValueSchema } from '@/lib/inspection-record';
import { REDACTED, SECRET_KEY, toJsonSafe, type JsonValue } from '@/lib/inspection/json-safe';
import {
  checkedFile,
  INSPECTOR_LOG_SCHEMA,
  inspectionMessageSchema,
  inspectionRecordSchema,
  inspectorLogSchema,
  readJsonFile,
  type InspectorLog,
} from '@/lib/inspection/log-file';

/**
 * A problem report (issue 22 item 5): one file with the redacted event log of the actors involved,
 * the job's history as the server keeps it, the app's version and the browser, which the inspector
 * loads and replays like an exported log. Nothing secret may be in it: every value passes
 * `scrubSecrets` (keys that name secrets, JWTs, bearer tokens, signed links' signatures, and the
 * secrets this browser holds, wherever they appear) as the last step before it is written.
 */
export const PROBLEM_REPORT_SCHEMA = 'kinora.problem-report';
export const PROBLEM_REPORT_VERSION = 1;
/** Records a report carries at most (the newest): a report is read by a person, and sent to the server. */
export const PROBLEM_REPORT_RECORDS = 2500;
export const PROBLEM_REPORT_NOTE_MAX = 2000;

export interface ReportJob {
  localId: string;
  mediaId: string | null;
  tool: string;
  toolTitle: string;
  option: string;
  optionLabel: string;
  outcome: string | null;
  error: string | null;
  cost: number;
  refunded: boolean;
  createdAt: number;
  finishedAt: number | null;
}

export interface ReportEnvironment {
  appVersion: string;
  mode: 'local' | 'hosted';
  /** The page's path only: a query may carry a one-time code or a redirect state. */
  path: string;
  userAgent: string;
  language: string;
  viewport: { width: number; height: number };
}


export const problemReportSchema = z.object({
  schema: z.literal(PROBLEM_REPORT_SCHEMA),
  version: z.literal(PROBLEM_REPORT_VERSION),
  createdAt: z.string(),
  note: z.string(),
  app: z.object({ version: z.string(), mode: z.enum(['local', 'hosted']), path: z.string() }),
  browser: z.object({ userAgent: z.string(), language: z.string(), viewport: z.object({ width: z.number(), height: z.number() }) }),
  job: z.record(z.string(), jsonValueSchema).nullable(),
  serverHistory: jsonValueSchema.nullable(),
  log: z.object({ records: z.array(inspectionRecordSchema), messages: z.array(inspectionMessageSchema).optional() }),
});

export type ProblemReport = z.infer<typeof problemReportSchema>;

const JWT = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
const BEARER = /\bBearer\s+[^\s"',;]+/gi;
/** Query parameters that grant something: a signed link's signature, a one-time code, a token. */
const SECRET_PARAM = /([?&](?:sig|signature|token|access_token|id_token|code|state|x-amz-[\w-]+)=)[^&#\s"']+/gi;
/** Secrets shorter than this are not searched for in text (they would match ordinary words). */
const MIN_SECRET_LENGTH = 8;

function scrubText(text: string, secrets: readonly string[]): string {
  let result = text.replace(JWT, REDACTED).replace(BEARER, REDACTED).replace(SECRET_PARAM, `$1${REDACTED}`);
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH && result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** A copy of `value` with every secret replaced by "[redacted]" (see the module's comment). */
export function scrubSecrets(value: JsonValue, secrets: readonly string[] = []): JsonValue {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => scrubSecrets(item, secrets));
  if (value && typeof value === 'object') {
    const result: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) {
      // A key can be a secret too (a map keyed by token); such a key is renamed.
      const safeKey = scrubText(key, secrets);
      result[safeKey] = SECRET_KEY.test(key) && item !== null ? REDACTED : scrubSecrets(item, secrets);
    }
    return result;
  }
  return value;
}

export interface ProblemReportParts {
  note: string;
  environment: ReportEnvironment;
  job: ReportJob | null;
  serverHistory: unknown;
  records: readonly InspectionRecord[];
  messages?: readonly unknown[];
  /** Secrets this browser holds (its tokens): never in the report, wherever they would appear. */
  secrets: readonly string[];
  now?: Date;
}

/** The report, scrubbed; the newest PROBLEM_REPORT_RECORDS records. */
export function buildProblemReport(parts: ProblemReportParts): ProblemReport {
  const { environment } = parts;
  const records = parts.records.slice(-PROBLEM_REPORT_RECORDS);
  const report = {
    schema: PROBLEM_REPORT_SCHEMA,
    version: PROBLEM_REPORT_VERSION,
    createdAt: (parts.now ?? new Date()).toISOString(),
    note: parts.note.slice(0, PROBLEM_REPORT_NOTE_MAX),
    app: { version: environment.appVersion, mode: environment.mode, path: environment.path.split(/[?#]/)[0] ?? '' },
    browser: { userAgent: environment.userAgent, language: environment.language, viewport: environment.viewport },
    job: parts.job ? toJsonSafe(parts.job) : null,
    serverHistory: parts.serverHistory === undefined ? null : toJsonSafe(parts.serverHistory),
    log: {
      records: records.map((record) => toJsonSafe(record)),
      ...(parts.messages ? { messages: parts.messages.slice(-PROBLEM_REPORT_RECORDS).map((message) => toJsonSafe(message)) } : {}),
    },
  };
  // Checked against its own schema: what is written is what the inspector reads back.
  return problemReportSchema.parse(scrubSecrets(report as unknown as JsonValue, parts.secrets));
}

export const problemReportFileName = (report: ProblemReport): string =>
  `kinora-problem-${report.createdAt.replace(/[:.]/g, '-')}.json`;

/** A report as the log the inspector replays. */
export const reportAsLog = (report: ProblemReport): InspectorLog => ({
  schema: INSPECTOR_LOG_SCHEMA,
  version: 1,
  exportedAt: report.createdAt,
  records: report.log.records,
  ...(report.log.messages ? { messages: report.log.messages } : {}),
});

/**
 * What the inspector was given, already parsed from JSON: an exported log, or a problem report
 * (replayed from its log). Anything else throws InspectorLogError with a readable reason.
 */
export function inspectorFileOf(data: unknown): { log: InspectorLog; report: ProblemReport | null } {
  const isReport = typeof data === 'object' && data !== null && (data as { schema?: unknown }).schema === PROBLEM_REPORT_SCHEMA;
  if (!isReport) return { log: checkedFile(inspectorLogSchema, data), report: null };
  const report = checkedFile(problemReportSchema, data);
  return { log: reportAsLog(report), report };
}

/** A file's text as the inspector reads it (see inspectorFileOf). */
export const parseInspectorFile = (text: string) => inspectorFileOf(readJsonFile(text));

/** Actors a job talks to whose records belong in its report (the registry, the session and its balance). */
const JOB_NEIGHBOURS = new Set(['jobs', 'session', 'credits']);
/** Around the job's own time: what its neighbours did just before it started and after it ended. */
const JOB_WINDOW_MS = 5000;

/**
 * The records of the actors a job involved: its own kept path (which spans reloads) or, when none
 * was kept, its records in this page; and its neighbours' records in the job's time.
 */
export function recordsForJob(
  pageRecords: readonly InspectionRecord[],
  savedPath: readonly InspectionRecord[] | null,
  job: Pick<ReportJob, 'localId' | 'createdAt' | 'finishedAt'>,
  now: number,
): InspectionRecord[] {
  const own = savedPath && savedPath.length > 0 ? [...savedPath] : pageRecords.filter((record) => record.actorId === job.localId);
  const from = job.createdAt - JOB_WINDOW_MS;
  const to = (job.finishedAt ?? now) + JOB_WINDOW_MS;
  const neighbours = pageRecords.filter((record) => JOB_NEIGHBOURS.has(record.actorId) && record.time >= from && record.time <= to);
  return [...own, ...neighbours].sort((a, b) => a.time - b.time).map((record, index) => ({ ...record, seq: index + 1 }));
}
