import { z } from './zod-mini';

/**
 * What the jobs registry keeps in local storage (`kinora_jobs`) so a reload resumes every live job
 * and still lists the recent ones: per user id, newest first. A job whose request was still being
 * sent keeps its idempotency key and its fields (only when they are all plain strings or numbers,
 * i.e. no file), so it can be sent again safely; the server answers the first response.
 */
export const storedJobSchema = z.object({
  localId: z.string(),
  /** The server's media id, once the submit was answered. */
  mediaId: z.nullable(z.string()),
  tool: z.string(),
  toolTitle: z.string(),
  option: z.string(),
  optionLabel: z.string(),
  endpoint: z.string(),
  cost: z.number(),
  idempotencyKey: z.string(),
  /** Plain fields of the request, kept only until the submit is answered; null once it was. */
  fields: z.nullable(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))),
  assetId: z._default(z.nullable(z.string()), null),
  createdAt: z.number(),
  /** Set when the job reached a final state. */
  outcome: z.nullable(z.enum(['succeeded', 'failed', 'nsfw', 'cancelled', 'denied'])),
  finishedAt: z.nullable(z.number()),
  refunded: z._default(z.boolean(), false),
  error: z._default(z.nullable(z.string()), null),
});
export type StoredJob = z.infer<typeof storedJobSchema>;

export type StoredJobs = Record<string, StoredJob[]>;
/** What may be written: defaults of a job's schema may be left out. */
export type StorableJobs = Record<string, z.input<typeof storedJobSchema>[]>;

/** One user's list: each entry checked on its own, a bad one skipped; not a list at all → null. */
const readJobList = (value: unknown): StoredJob[] | null => {
  if (!Array.isArray(value)) return null;
  return value.flatMap((entry: unknown) => {
    const parsed = storedJobSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
};

/**
 * All users' lists, read leniently: one bad entry (an older build's shape, a hand edit) or one
 * user's broken list drops only itself, never every user's jobs. The written shape stays strict.
 */
export const storedJobsSchema = z.pipe(
  z.record(z.string(), z.unknown()),
  z.transform((users): StoredJobs => {
    const lists: StoredJobs = {};
    for (const [userId, value] of Object.entries(users)) {
      const list = readJobList(value);
      if (list) lists[userId] = list;
    }
    return lists;
  }),
) as unknown as z.ZodMiniType<StoredJobs, StorableJobs>;
