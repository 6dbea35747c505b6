import { z } from 'zod';
import type { InspectionMessage, InspectionRecord } from '@/lib/inspection/hub';
import { inspectionRecordSchema } from '@/lib/inspection-record';

/** An exported inspector log: what the inspector writes with Export and reads with Load. */
export const INSPECTOR_LOG_SCHEMA = 'kinora.inspector-log';
export const INSPECTOR_LOG_VERSION = 1;

export { inspectionRecordSchema };

const messageKind = z.enum(['machine', 'service', 'outside']);

export const inspectionMessageSchema = z.object({
  seq: z.number().int().nonnegative(),
  time: z.number(),
  type: z.enum(['event', 'invoke']),
  fromId: z.string().nullable(),
  fromSessionId: z.string().nullable(),
  fromKind: messageKind,
  toId: z.string(),
  toSessionId: z.string(),
  toKind: messageKind.exclude(['outside']),
  event: z.string(),
}) satisfies z.ZodType<InspectionMessage>;

export const inspectorLogSchema = z.object({
  schema: z.literal(INSPECTOR_LOG_SCHEMA),
  version: z.literal(INSPECTOR_LOG_VERSION),
  exportedAt: z.string(),
  records: z.array(inspectionRecordSchema),
  /** The messages between actors (the sequence view); logs exported before it have none. */
  messages: z.array(inspectionMessageSchema).optional(),
});

export type InspectorLog = z.infer<typeof inspectorLogSchema>;

export function buildInspectorLog(
  records: readonly InspectionRecord[],
  now = new Date(),
  messages: readonly InspectionMessage[] = [],
): InspectorLog {
  return {
    schema: INSPECTOR_LOG_SCHEMA,
    version: INSPECTOR_LOG_VERSION,
    exportedAt: now.toISOString(),
    records: [...records],
    messages: [...messages],
  };
}

export class InspectorLogError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'InspectorLogError';
  }
}

/** Parses an exported log's text; a bad file throws InspectorLogError with a readable reason. */
export function parseInspectorLog(text: string): InspectorLog {
  return checkedFile(inspectorLogSchema, readJsonFile(text));
}

/** A file's text as JSON; text that is not JSON throws InspectorLogError. */
export function readJsonFile(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InspectorLogError('it is not JSON');
  }
}

/** The data if it has the schema's shape; else InspectorLogError naming the first thing wrong. */
export function checkedFile<T>(schema: z.ZodType<T>, data: unknown): T {
  const result = schema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new InspectorLogError(`${where}${issue?.message ?? 'unknown shape'}`);
  }
  return result.data;
}

/** Offers the log as a JSON download (Blob + a temporary link). */
export function downloadInspectorLog(log: InspectorLog): void {
  const blob = new Blob([JSON.stringify(log, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `kinora-inspector-${log.exportedAt.replace(/[:.]/g, '-')}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
