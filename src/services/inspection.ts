import { z } from 'zod';
import { ApiError } from '@/services/api-error';
import { apiGet, apiPostJson, apiPutJson } from '@/services/http';
import {
  jobHistorySchema,
  jobLogSavedSchema,
  jobLogSchema,
  problemReportListSchema,
  problemReportSavedSchema,
  type InspectionRecordWire,
  type JobHistory,
  type JobLog,
  type JobLogSaved,
  type ProblemReportList,
  type ProblemReportSaved,
} from '@/services/schemas/inspection';

/**
 * The QA inspector's calls (issue 22 items 1 and 5; Kinora's additions to SPEC §7, README "For
 * QA"): a finished job's log kept with the job on the server for a week, the job's server-side
 * history, and the problem reports a local Kinora keeps. The server redacts everything it stores.
 */

const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.status === 404;

const media = (mediaId: string, rest: string): string => `media/${encodeURIComponent(mediaId)}/${rest}`;

/** PUT media/{id}/inspection-log: keeps the job's records (and messages) with the job; the owner only. */
export const saveJobLog = (
  mediaId: string,
  log: { records: readonly InspectionRecordWire[]; messages?: readonly unknown[] },
): Promise<JobLogSaved> => apiPutJson(media(mediaId, 'inspection-log'), log, jobLogSavedSchema);

/** GET media/{id}/inspection-log: the job's kept log, or null when none was kept (or it is over a week old). */
export async function fetchJobLog(mediaId: string): Promise<JobLog | null> {
  try {
    return await apiGet(media(mediaId, 'inspection-log'), jobLogSchema);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** GET media/{id}/history: the job as the server recorded it (row, debit, refund, saved log) as events. */
export const fetchJobHistory = (mediaId: string): Promise<JobHistory> => apiGet(media(mediaId, 'history'), jobHistorySchema);

/**
 * POST problem-reports: keeps a "Report a problem" bundle on the server. Only a local Kinora keeps
 * reports; elsewhere the call answers 404 (ApiError) and the report is only downloaded.
 */
export const sendProblemReport = (bundle: object): Promise<ProblemReportSaved> =>
  apiPostJson('problem-reports', bundle, problemReportSavedSchema);

/** GET problem-reports (local mode): the newest reports first, at most 50. */
export const listProblemReports = (): Promise<ProblemReportList> => apiGet('problem-reports', problemReportListSchema);

/** GET problem-reports/{id} (local mode): the stored bundle as JSON, for the caller to parse. */
export const fetchProblemReport = (id: string): Promise<unknown> =>
  apiGet(`problem-reports/${encodeURIComponent(id)}`, z.unknown());
