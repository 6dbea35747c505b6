import { z } from 'zod';

/**
 * One inspector record as JSON (the fields of InspectionRecord, src/lib/inspection/hub.ts): the
 * shape an exported log, a problem report and a job's kept path hold. One schema for the web app
 * and the server, which checks what it stores with it (through src/services/schemas/inspection.ts;
 * the server may not import src/lib/inspection/, which holds browser code).
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(jsonValueSchema), z.record(z.string(), jsonValueSchema)]),
);

export const inspectionRecordSchema = z.object({
  seq: z.number().int().nonnegative(),
  time: z.number(),
  actorId: z.string(),
  sessionId: z.string(),
  machineId: z.string(),
  type: z.enum(['actor', 'event', 'snapshot']),
  event: z.string().optional(),
  from: jsonValueSchema.optional(),
  to: jsonValueSchema.optional(),
  snapshotValue: jsonValueSchema.optional(),
  status: z.string().optional(),
  context: jsonValueSchema.optional(),
});
