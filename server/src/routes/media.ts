import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MEDIA_KINDS, type MediaKind } from '../../../src/config/enums.ts';
import { GENERATION_TOOLS, UPLOAD_ENDPOINTS } from '../../../src/config/generation-tools.ts';
import { GUEST_USERNAME, STATUS_BATCH_MAX_IDS } from '../../../src/config/limits.ts';
import { TOOL_SLUGS } from '../../../src/config/tools.ts';
import type { Media, ProcessingStatus } from '../../../src/services/schemas/media.ts';
import {
  JOB_SEARCH_DEFAULT_SORT,
  JOB_SEARCH_LIMIT_MAX,
  JOB_SEARCH_SORTS,
  JOB_SEARCH_STATUSES,
  type JobSearchPage,
} from '../../../src/services/schemas/job-history.ts';
import { findMediaFile } from '../db/files.ts';
import {
  deleteMediaRow,
  endJobWithRefund,
  findMedia,
  findOwnMedia,
  insertMedia,
  isLive,
  QUEUED_STATUS,
  updateMediaRecord,
  type MediaRow,
  type ProcessingStatusRow,
  type StoredImageRef,
} from '../db/media.ts';
import { decodeSearchCursor, encodeSearchCursor, searchOwnMedia, type MediaSearch } from '../db/media-search.ts';
import { queuePositions } from '../db/queue.ts';
import { findUserBySub } from '../db/users.ts';
import { requireOwnAssetId } from '../db/assets.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { resolvePictureLink } from './image-inputs.ts';
import { paidCallQuery } from './route-schemas.ts';
import type { AuthUser } from './user-auth.ts';
import { mediaAnswer, mediaAnswers, type LinkMaker } from './media-answer.ts';
import { mediaQueueRoutes } from './media-queue.ts';
import { mediaRerunRoutes } from './media-rerun.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import { readMultipart, single, type MultipartBody } from './multipart-body.ts';
import { createVideoCreationJob } from './video-creation.ts';

/** Kinora's listing: at most this many per call, 20 when not asked (RECENT_JOBS_LIMIT). */
const LIST_LIMIT_MAX = JOB_SEARCH_LIMIT_MAX;
const LIST_LIMIT_DEFAULT = 20;

/**
 * GET media/{id}/view answers only these args: what a public page may show of the request (a
 * video's ribbon reads creation_type, its label effect).
 */
const PUBLIC_ARGS = ['option', 'prompt', 'aspect_ratio', 'voice', 'effect', 'creation_type'] as const;

/** A query value left blank (`?q=`) is the same as one not sent. */
const blankAsAbsent = (value: unknown): unknown => (value === '' ? undefined : value);
const optionalText = (max: number) => z.preprocess(blankAsAbsent, z.string().trim().min(1).max(max).optional());
const optionalCredits = z.preprocess(blankAsAbsent, z.coerce.number().int().min(0).max(1_000_000_000).optional());
/** A day (`2026-11-27`, a UTC day) or an instant with its offset (`2026-11-27T10:00:00Z`). */
const optionalWhen = z.preprocess(blankAsAbsent, z.union([z.iso.date(), z.iso.datetime({ offset: true })]).optional());

/**
 * GET media's query (issue 21 item 1 added all but tool and limit): the person's jobs searched,
 * filtered, sorted and paged by `next_start_keys` (server/src/db/media-search.ts).
 */
const listQuerySchema = z
  .object({
    tool: z.string().min(1).max(100).optional(),
    limit: z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
    status: z.preprocess(blankAsAbsent, z.enum(JOB_SEARCH_STATUSES).optional()),
    option: optionalText(100),
    q: optionalText(500),
    seed: optionalText(100),
    cost_min: optionalCredits,
    cost_max: optionalCredits,
    from: optionalWhen,
    to: optionalWhen,
    sort: z.preprocess(blankAsAbsent, z.enum(JOB_SEARCH_SORTS).default(JOB_SEARCH_DEFAULT_SORT)),
    next_start_keys: z.preprocess(blankAsAbsent, z.string().max(1000).optional()),
  })
  .refine((query) => query.cost_min === undefined || query.cost_max === undefined || query.cost_min <= query.cost_max, {
    message: 'cost_min must not be more than cost_max',
    path: ['cost_min'],
  });
type ListQuery = z.output<typeof listQuerySchema>;

const DAY_MS = 24 * 60 * 60 * 1000;
const isDayOnly = (when: string): boolean => when.length === 10;

/** The search a GET media query asks for; a cursor this listing did not give out is a 400. */
function searchOf(query: ListQuery): MediaSearch {
  const after = query.next_start_keys === undefined ? undefined : decodeSearchCursor(query.next_start_keys, query.sort);
  if (after === null) throw new HttpError(400, DETAILS.badContentCursor);
  const search: MediaSearch = {
    tool: query.tool,
    option: query.option,
    status: query.status,
    q: query.q,
    seed: query.seed,
    costMin: query.cost_min,
    costMax: query.cost_max,
    sort: query.sort,
    after,
    limit: query.limit,
  };
  if (query.from !== undefined) search.from = new Date(isDayOnly(query.from) ? `${query.from}T00:00:00.000Z` : query.from);
  // A day alone is that whole day: up to the next day's start.
  if (query.to !== undefined && isDayOnly(query.to)) search.toExclusive = new Date(new Date(`${query.to}T00:00:00.000Z`).getTime() + DAY_MS);
  else if (query.to !== undefined) search.toInclusive = new Date(query.to);
  return search;
}

const bulletVideoSchema = z.object({ batch_video_path: z.string().min(1).max(2000) });

/** `?ids=a,b,c` of the batched processing-status: ids as the single call takes them, comma-separated. */
const statusBatchQuery = z.object({
  ids: z
    .string()
    .regex(/^[^,]+(,[^,]+)*$/, 'ids must be ids separated by commas')
    .refine((ids) => ids.split(',').length <= STATUS_BATCH_MAX_IDS, `at most ${STATUS_BATCH_MAX_IDS} ids`),
});

/** What processing-status answers of a job: nothing but its progress. */
const processingStatusOf = (row: ProcessingStatusRow): ProcessingStatus => ({
  id: row.id,
  status: row.status,
  progress: row.progress,
  items: row.items.map((item) => ({ status: item.status })),
  updated_at: row.updated_at.toISOString(),
  held: row.held,
  queue_position: row.queue_position,
});

/** Fields of POST media / PUT media/{id}/edit that are columns, not args. */
const RECORD_CONTROL_FIELDS = new Set(['image_urls', 'kind', 'tool']);
/** A free-form field's name: what args keys look like elsewhere (prompt, aspect_ratio, batch_video_path…). */
const ARG_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** What a media record's `tool` may be: a tool of the product, an upload, or a plain record. */
const RECORD_TOOLS: ReadonlySet<string> = new Set<string>([
  ...TOOL_SLUGS,
  ...GENERATION_TOOLS.map((tool) => tool.slug),
  ...MEDIA_KINDS.map((kind) => UPLOAD_ENDPOINTS[kind].tool),
  'media',
]);
/** Longest outside URL a media record keeps (the usual browser and CDN limit). */
const URL_MAX_LENGTH = 2048;

/** Free-form fields as args: one value stays a string, a repeated key becomes an array. */
function fieldsAsArgs(body: MultipartBody): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(body.fields)) {
    if (RECORD_CONTROL_FIELDS.has(name)) continue;
    if (!ARG_NAME.test(name)) throw new HttpError(400, DETAILS.badFieldName(name));
    args[name] = values.length === 1 ? values[0] : values;
  }
  return args;
}

const isWebUrl = (link: string): boolean => {
  if (link.length > URL_MAX_LENGTH) return false;
  try {
    const url = new URL(link);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

/**
 * image_urls[] of a media record: the caller's own Kinora files become file references (signed
 * afresh in every answer); someone else's file, reached through a link they shared, stays that
 * link (it expires as they meant it to); anything else must be an http(s) URL (no javascript:).
 */
async function recordImageRefs(deps: MediaRouteDeps, user: AuthUser, links: readonly string[]): Promise<StoredImageRef[]> {
  const refs: StoredImageRef[] = [];
  for (const raw of links) {
    const link = raw.trim();
    const file = await resolvePictureLink(deps, user, link, 'image_urls', { picturesOnly: false, required: false });
    if (file) refs.push(file.user_sub === user.sub ? { file_id: file.id } : { url: link });
    else if (isWebUrl(link)) refs.push({ url: link });
    else throw new HttpError(400, DETAILS.badLink('image_urls'));
  }
  return refs;
}

function recordTool(body: MultipartBody): string {
  const tool = single(body, 'tool') ?? 'media';
  if (!RECORD_TOOLS.has(tool)) throw new HttpError(400, DETAILS.unknownTool(tool));
  return tool;
}

function pickFields(media: Media, fields: string | undefined): Partial<Media> {
  if (!fields) return media;
  const wanted = new Set(fields.split(',').map((field) => field.trim()).filter(Boolean));
  wanted.add('id');
  return Object.fromEntries(Object.entries(media).filter(([key]) => wanted.has(key))) as Partial<Media>;
}

export async function mediaRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, engine, signer } = deps;
  const linksFor = (request: FastifyRequest): LinkMaker => ({ origin: requestOrigin(request), signer });

  async function ownMedia(request: FastifyRequest<{ Params: { id: string } }>, user: AuthUser): Promise<MediaRow> {
    const row = await findOwnMedia(db, request.params.id, user.sub);
    if (!row) throw new HttpError(404, DETAILS.notFound);
    return row;
  }

  /** Cancels a live job with its refund; null when it had already ended. */
  async function cancelLive(id: string): Promise<MediaRow | null> {
    const row = await db.transaction((tx) => endJobWithRefund(tx, id, 'cancelled', null));
    if (row) {
      engine.announceEnd(id);
      // A place in its owner's running limit may have freed: their next waiting job starts now.
      engine.notify();
    }
    return row;
  }

  /**
   * Kinora's listing of the caller's own media (newest first by default), and since issue 21 the
   * job history's search: filters, sorts and keyset pages (`next_start_keys`, null on the last).
   */
  app.get<{ Querystring: Record<string, unknown> }>('/media', async (request): Promise<{ data: JobSearchPage }> => {
    const user = await auth.requireUser(request);
    const query = parseInput(listQuerySchema, request.query, 'Query');
    const { rows, more } = await searchOwnMedia(db, user.sub, searchOf(query));
    const last = rows.at(-1);
    const answers = await mediaAnswers(db, rows, linksFor(request));
    // A waiting job's place in the person's queue, counted once for the page (issue 21 item 2).
    const positions = rows.some((row) => row.status === QUEUED_STATUS && !row.held_at) ? await queuePositions(db, user.sub) : null;
    return ok({
      items: positions ? answers.map((answer) => ({ ...answer, queue_position: positions.get(answer.id) ?? null })) : answers,
      next_start_keys: more && last ? encodeSearchCursor(query.sort, last.search_key) : null,
    });
  });

  /**
   * POST media: with a `pose_preset`, a video creation job (routes/video-creation.ts); without, a
   * media record without a job (SPEC §7), e.g. a picture kept for later.
   */
  app.withTypeProvider<ZodTypeProvider>().post('/media', { schema: { querystring: paidCallQuery } }, async (request, reply) => {
    const user = await auth.requireUser(request);
    const body = await readMultipart(request);
    if (body.fields.pose_preset !== undefined) return createVideoCreationJob(deps, request, reply, user, body);
    const kind = (single(body, 'kind') ?? 'image') as MediaKind;
    if (!MEDIA_KINDS.includes(kind)) throw new HttpError(400, `kind must be one of ${MEDIA_KINDS.join(', ')}.`);
    const tool = recordTool(body);
    const args = fieldsAsArgs(body);
    const row = await insertMedia(db, {
      userSub: user.sub,
      kind,
      tool,
      status: 'success_source',
      progress: 100,
      args,
      imageUrls: await recordImageRefs(deps, user, body.fields.image_urls ?? []),
      assetId: await requireOwnAssetId(db, user.sub, request.query.asset_id),
      logoVariant: user.row.logo_variant,
      finished: true,
    });
    return ok(await mediaAnswer(db, row, linksFor(request)));
  });

  app.put<{ Params: { id: string } }>('/media/:id/edit', async (request): Promise<{ data: Media }> => {
    const user = await auth.requireUser(request);
    const current = await ownMedia(request, user);
    // A live job's args and pictures are what its worker renders from: they stay as validated.
    if (isLive(current.status)) throw new HttpError(409, DETAILS.jobStillRunning);
    const body = await readMultipart(request);
    const args = fieldsAsArgs(body);
    const imageUrls = body.fields.image_urls ? await recordImageRefs(deps, user, body.fields.image_urls) : undefined;
    const row = await updateMediaRecord(db, request.params.id, user.sub, { args, imageUrls });
    if (!row) throw new HttpError(404, DETAILS.notFound);
    return ok(await mediaAnswer(db, row, linksFor(request)));
  });

  app.get<{ Params: { id: string }; Querystring: { fields?: string } }>(
    '/media/:id',
    async (request): Promise<{ data: Partial<Media> }> => {
      const user = await auth.requireUser(request);
      const row = await ownMedia(request, user);
      return ok(pickFields(await mediaAnswer(db, row, linksFor(request)), request.query.fields));
    },
  );

  /**
   * Kinora's addition to SPEC §7: several jobs' processing-status in one request (`?ids=a,b,c`, at
   * most STATUS_BATCH_MAX_IDS), without auth like the single call; the web app sends it when several
   * of its jobs poll at the same moment (a page shown again). An unknown id is left out.
   */
  app.withTypeProvider<ZodTypeProvider>().get(
    '/media/processing-status',
    { schema: { querystring: statusBatchQuery } },
    async (request, reply): Promise<{ data: { items: ProcessingStatus[] } }> => {
      const ids = [...new Set(request.query.ids.split(','))];
      const rows = await Promise.all(ids.map((id) => engine.statuses.read(id)));
      reply.header('Cache-Control', 'no-store');
      return ok({ items: rows.flatMap((row) => (row ? [processingStatusOf(row)] : [])) });
    },
  );

  /** Polled without auth (SPEC §6): nothing but the job's progress. */
  app.get<{ Params: { id: string } }>(
    '/media/:id/processing-status',
    // Its answer is a few hundred bytes and it has no body: no compression hooks on the most polled path.
    { compress: false, decompress: false },
    async (request, reply): Promise<{ data: ProcessingStatus }> => {
      const row = await engine.statuses.read(request.params.id);
      if (!row) throw new HttpError(404, DETAILS.notFound);
      reply.header('Cache-Control', 'no-store');
      return ok(processingStatusOf(row));
    },
  );

  app.put<{ Params: { id: string } }>('/media/:id/cancel', async (request): Promise<{ data: Media }> => {
    const user = await auth.requireUser(request);
    await ownMedia(request, user);
    const cancelled = await cancelLive(request.params.id);
    if (!cancelled) throw new HttpError(409, DETAILS.jobAlreadyEnded);
    return ok(await mediaAnswer(db, cancelled, linksFor(request)));
  });

  app.delete<{ Params: { id: string } }>('/media/:id', async (request): Promise<{ data: { id: string; deleted: true } }> => {
    const user = await auth.requireUser(request);
    const row = await ownMedia(request, user);
    const removed = await db.transaction(async (tx) => {
      if (isLive(row.status)) await endJobWithRefund(tx, row.id, 'cancelled', null);
      return deleteMediaRow(tx, row.id, user.sub);
    });
    if (!removed) throw new HttpError(404, DETAILS.notFound);
    engine.announceEnd(row.id);
    await engine.store.removeMedia(row.id);
    return ok({ id: row.id, deleted: true as const });
  });

  /**
   * A public view (no auth): media its owner made public or unlisted. The shared guest account's
   * media are for guests only (SPEC §6: visible to other guests, not to everyone), as in Latest.
   */
  app.get<{ Params: { id: string } }>('/media/:id/view', async (request): Promise<{ data: Media }> => {
    const row = await findMedia(db, request.params.id);
    if (!row) throw new HttpError(404, DETAILS.notFound);
    const owner = await findUserBySub(db, row.user_sub);
    // A deleted account's media are gone for everyone.
    if (!owner || owner.deleted_at) throw new HttpError(404, DETAILS.notFound);
    if (owner.username.toLowerCase() === GUEST_USERNAME) {
      const caller = await auth.optionalUser(request);
      if (caller?.row.username.toLowerCase() !== GUEST_USERNAME) throw new HttpError(404, DETAILS.notFound);
    } else if (row.visibility !== 'public' && row.visibility !== 'unlisted') {
      throw new HttpError(404, DETAILS.notFound);
    }
    const answer = await mediaAnswer(db, row, linksFor(request));
    const args = Object.fromEntries(PUBLIC_ARGS.filter((key) => key in row.args).map((key) => [key, row.args[key]]));
    // Title, description, visibility and shared_at are in every media answer; the owner only here.
    return ok({ ...answer, args, owner: { id: owner.sub, preferred_username: owner.preferred_username } });
  });

  app.get<{ Params: { id: string; fileId: string } }>(
    '/media/:id/file/:fileId/get-url',
    async (request): Promise<{ data: { url: string; expires_at: string } }> => {
      const user = await auth.requireUser(request);
      const row = await ownMedia(request, user);
      const file = await findMediaFile(db, request.params.fileId);
      if (!file || file.media_id !== row.id) throw new HttpError(404, DETAILS.notFound);
      const { url, expiresAt } = signer.sign(requestOrigin(request), file.id);
      return ok({ url, expires_at: expiresAt.toISOString() });
    },
  );

  app.put<{ Params: { id: string } }>('/media/:id/post-bullet-video', async (request): Promise<{ data: Media }> => {
    const user = await auth.requireUser(request);
    await ownMedia(request, user);
    const { batch_video_path } = parseInput(bulletVideoSchema, request.body);
    const row = await updateMediaRecord(db, request.params.id, user.sub, { args: { batch_video_path } });
    if (!row) throw new HttpError(404, DETAILS.notFound);
    return ok(await mediaAnswer(db, row, linksFor(request)));
  });

  // POST media/{id}/rerun (issue 21 item 1): an ended generation job made again, paid like its call.
  await mediaRerunRoutes(app, deps);
  // Hold, resume, run next and edit of a job still waiting (issue 21 item 2).
  await mediaQueueRoutes(app, deps);
}
