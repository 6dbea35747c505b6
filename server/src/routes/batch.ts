import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BATCH_ADDITIONAL_VIDEOS_MAX,
  BATCH_CLIP_TOOL,
  BATCH_CONCAT_TOOL,
  BATCH_JOIN_CREDITS,
  BATCH_PICTURES,
  BATCH_TITLE_MAX,
  BATCH_TYPES,
  type BatchType,
} from '../../../src/config/batch.ts';
import type { MediaKind } from '../../../src/config/enums.ts';
import { MESSAGES } from '../../../src/config/messages.ts';
import { PROMPT_STRENGTH } from '../../../src/config/video-creation.ts';
import { additionalVideoSchema, type Batch, type ScriptBoard, type ScriptBoardClip } from '../../../src/services/schemas/batch.ts';
import {
  batchIdOfMedia,
  deleteOwnBatch,
  findOwnBatch,
  insertBatch,
  listOwnBatches,
  lockOwnBatch,
  updateBatch,
  type BatchChange,
  type BatchRow,
  type StoredAdditionalVideo,
} from '../db/batch.ts';
import { findMediaFile, type MediaFileRow } from '../db/files.ts';
import { insertMedia, newPublicId, QUEUED_STATUS, type StoredImageRef, type StoredInput } from '../db/media.ts';
import { closeHold } from '../db/credit-holds.ts';
import { chargeJobs } from '../jobs/charge.ts';
import { batchAnswer, pickBatchFields } from './batch-answer.ts';
import { albumProject, batchHoldRoutes } from './batch-hold.ts';
import {
  checkScriptBoard,
  clipJob,
  parseBoardSettings,
  parseScriptBoard,
  writeScriptBoard,
  type BoardPicture,
  type ClipJob,
} from './batch-board.ts';
import { describeZodError, HttpError, ok } from './http.ts';
import { runIdempotent, type HandlerAnswer } from './idempotent.ts';
import { resolveMediaLink } from './image-inputs.ts';
import type { LinkMaker } from './media-answer.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import { readMultipart, requestDigest, single, type MultipartBody } from './multipart-body.ts';
import { idParams } from './route-schemas.ts';
import type { AuthUser } from './user-auth.ts';

/**
 * A script board holds up to 50 clips with their prompts and links: far more than the usual
 * field limit, so the batch calls read longer values.
 */
const BOARD_FIELD_MAX = 120_000;
/** Sounds an album keeps; the first plays under the joined video. */
const BATCH_AUDIO_MAX = 4;
/** Videos one join takes from concat_video_urls (a board's clips, 50 at most, plus room for re-takes). */
const CONCAT_VIDEOS_MAX = 60;
/** The endpoints the album's jobs record. */
const CLIPS_ENDPOINT = 'batch/videos';
const CONCAT_ENDPOINT = 'batch/edit';

/** Fields that are the album's columns or the call's controls, never free-form args. */
const CONTROL_FIELDS = new Set([
  'image_urls',
  'audio_urls',
  'concat_video_urls',
  'additional_videos',
  'script_board',
  'batch_type',
  'title',
  'concat',
]);
/** A free-form field's name: what args keys look like elsewhere (see routes/media.ts). */
const ARG_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

const bad = (detail: string): HttpError => new HttpError(400, detail);
/** SPEC §8: what the web app shows when an album cannot be found (unknown, or someone else's). */
const batchNotFound = (): HttpError => new HttpError(404, MESSAGES.batchNotFound.message);

const isBatchType = (value: string): value is BatchType => BATCH_TYPES.some((type) => type.value === value);

/** Values of a repeated field without the blanks an empty form input leaves; undefined when not sent. */
function listField(body: MultipartBody, name: string): string[] | undefined {
  const values = body.fields[name];
  if (values === undefined) return undefined;
  return values.map((value) => value.trim()).filter((value) => value !== '');
}

/** Free-form fields as args: one value stays a string, a repeated key becomes an array. */
function fieldsAsArgs(body: MultipartBody): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(body.fields)) {
    if (CONTROL_FIELDS.has(name)) continue;
    if (!ARG_NAME.test(name)) throw bad(DETAILS.badFieldName(name));
    args[name] = values.length === 1 ? values[0] : values;
  }
  return args;
}

function parseTitle(body: MultipartBody): string | undefined {
  const title = single(body, 'title')?.trim();
  if (title !== undefined && title.length > BATCH_TITLE_MAX) throw bad(`title can be at most ${BATCH_TITLE_MAX} characters.`);
  return title;
}

function parseLoop(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  if (raw === '0' || raw === '1') return Number(raw);
  throw bad('loop must be 0 or 1.');
}

function parseAdditionalVideos(raw: string): { url: string; label: string }[] {
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch {
    throw bad('additional_videos must be JSON: [{"url": "…", "label": "…"}].');
  }
  const result = additionalVideoSchema.array().max(BATCH_ADDITIONAL_VIDEOS_MAX).safeParse(value);
  if (!result.success) throw bad(`additional_videos is invalid: ${describeZodError(result.error)}`);
  return result.data;
}

/** A clip about to become a video job: its media id, picture, preset and price. */
interface PlannedClip {
  id: string;
  clip: ScriptBoardClip;
  picture: AlbumFile;
  job: ClipJob;
  price: number;
  modelLabel: string;
}

/** A file an album refers to, with the reference the album keeps of it. */
interface AlbumFile {
  file: MediaFileRow;
  ref: StoredImageRef;
}

/**
 * SPEC §7 batch calls and Kinora's GET batch: albums of pictures whose script board makes one
 * video job per clip (all paid in one transaction), joined into one video with a sound under it.
 */
export async function batchRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, engine, signer, provider } = deps;
  const linksFor = (request: FastifyRequest): LinkMaker => ({ origin: requestOrigin(request), signer });

  async function ownBatch(id: string, user: AuthUser): Promise<BatchRow> {
    const row = await findOwnBatch(db, id, user.sub);
    if (!row) throw batchNotFound();
    return row;
  }

  /**
   * A link the caller sends for a file of `kind`: their own file (kept as a reference, signed
   * afresh in every answer) or one shared with them by a signed link (kept as that link).
   */
  async function albumFile(user: AuthUser, link: string, field: string, kind: MediaKind): Promise<AlbumFile> {
    const file = await resolveMediaLink(deps, user, link, field, { kind, required: true });
    if (!file) throw bad(DETAILS.notAKinoraFile(field));
    return { file, ref: file.user_sub === user.sub ? { file_id: file.id } : { url: link } };
  }

  async function albumFiles(user: AuthUser, links: readonly string[], field: string, kind: MediaKind): Promise<AlbumFile[]> {
    const files: AlbumFile[] = [];
    for (const link of links) files.push(await albumFile(user, link, field, kind));
    return files;
  }

  async function albumPictures(user: AuthUser, links: readonly string[]): Promise<AlbumFile[]> {
    if (links.length < BATCH_PICTURES.min || links.length > BATCH_PICTURES.max) {
      throw bad(`An album takes ${BATCH_PICTURES.min} to ${BATCH_PICTURES.max} pictures (image_urls); you sent ${links.length}.`);
    }
    return albumFiles(user, links, 'image_urls', 'image');
  }

  /** The file a stored reference names now: the caller's file still there, or a shared link still valid. */
  async function storedFile(user: AuthUser, ref: StoredImageRef, field: string, kind: MediaKind): Promise<MediaFileRow> {
    if ('url' in ref) return (await albumFile(user, ref.url, field, kind)).file;
    const file = await findMediaFile(db, ref.file_id);
    if (!file || file.user_sub !== user.sub) throw bad(`A file of this album's ${field} is no longer stored; replace it.`);
    return file;
  }

  async function answer(request: FastifyRequest, row: BatchRow): Promise<{ data: Batch }> {
    return ok(await batchAnswer(db, row, linksFor(request)));
  }

  async function createAlbum(request: FastifyRequest, advanced: boolean): Promise<{ data: Batch }> {
    const user = await auth.requireUser(request);
    const body = await readMultipart(request, { maxValueLength: BOARD_FIELD_MAX });
    const batchType = single(body, 'batch_type')?.trim() ?? '';
    if (!isBatchType(batchType)) throw bad(`batch_type must be one of ${BATCH_TYPES.map((type) => type.value).join(', ')}.`);
    const title = parseTitle(body) ?? '';
    const boardField = single(body, 'script_board');
    if (advanced && !boardField) throw bad('script_board is required: the advanced album is created with its own board.');
    const scriptBoard = advanced && boardField ? checkScriptBoard(batchType, parseScriptBoard(boardField)) : null;
    const pictures = await albumPictures(user, listField(body, 'image_urls') ?? []);
    const row = await insertBatch(db, {
      userSub: user.sub,
      batchType,
      title,
      imageUrls: pictures.map((picture) => picture.ref),
      scriptBoard,
      args: fieldsAsArgs(body),
    });
    return answer(request, row);
  }

  app.get('/batch', async (request): Promise<{ data: { items: Batch[] } }> => {
    const user = await auth.requireUser(request);
    const rows = await listOwnBatches(db, user.sub);
    const links = linksFor(request);
    const items: Batch[] = [];
    for (const row of rows) items.push(await batchAnswer(db, row, links));
    return ok({ items });
  });

  app.post('/batch', (request) => createAlbum(request, false));
  app.post('/batch/advanced', (request) => createAlbum(request, true));

  app.get<{ Params: { id: string }; Querystring: { fields?: string } }>(
    '/batch/:id',
    async (request): Promise<{ data: Partial<Batch> }> => {
      const user = await auth.requireUser(request);
      const row = await ownBatch(request.params.id, user);
      return ok(pickBatchFields(await batchAnswer(db, row, linksFor(request)), request.query.fields));
    },
  );

  /**
   * Writes the album's board: one clip per picture. AI clips get the picture's description as
   * their prompt (Image2Prompt), so the person starts from words about their own picture.
   */
  app.post<{ Params: { id: string } }>('/batch/:id/script-board', async (request): Promise<{ data: Batch }> => {
    const user = await auth.requireUser(request);
    const album = await ownBatch(request.params.id, user);
    const body = await readMultipart(request);
    const settings = parseBoardSettings(album.batch_type, {
      model: single(body, 'model'),
      motion_length: single(body, 'motion_length'),
      motion_amount: single(body, 'motion_amount'),
    });
    const links = listField(body, 'image_urls');
    const replaced = links && links.length > 0 ? await albumPictures(user, links) : null;
    const files = replaced
      ? replaced.map((picture) => picture.file)
      : await Promise.all(album.image_urls.map((ref) => storedFile(user, ref, 'image_urls', 'image')));
    const refs = replaced ? replaced.map((picture) => picture.ref) : album.image_urls;
    const origin = requestOrigin(request);
    const pictures: BoardPicture[] = [];
    for (const [index, file] of files.entries()) {
      const ref = refs[index];
      const link = ref && 'url' in ref ? ref.url : signer.sign(origin, file.id).url;
      const description =
        album.batch_type === 'ai'
          ? await provider.describeImage({ path: await engine.store.localPath(file), contentType: file.content_type, field: 'image_urls' })
          : '';
      pictures.push({ link, description });
    }
    const change: BatchChange = { scriptBoard: writeScriptBoard(album.batch_type, pictures, settings) };
    if (replaced) change.imageUrls = refs;
    const row = await updateBatch(db, album.id, user.sub, change);
    if (!row) throw batchNotFound();
    return answer(request, row);
  });

  /**
   * One video job per clip, every debit in one transaction: either the whole album is paid for
   * and queued, or (402) nothing was made. The first clip's id binds the Idempotency-Key, so a
   * retry replays the album as it is then.
   */
  async function generateClips(
    request: FastifyRequest<{ Params: { id: string } }>,
    user: AuthUser,
    body: MultipartBody,
    key: string | null,
  ): Promise<HandlerAnswer> {
    const album = await ownBatch(request.params.id, user);
    const boardField = single(body, 'script_board');
    if (!boardField) throw bad('script_board is required: the clips to make.');
    const board: ScriptBoard = checkScriptBoard(album.batch_type, parseScriptBoard(boardField));
    if (board.clips.length === 0) throw bad('The script board has no clips.');
    const loop = parseLoop(single(body, 'loop'));
    const typeLabel = BATCH_TYPES.find((type) => type.value === album.batch_type)?.label ?? album.batch_type;
    const clips: PlannedClip[] = [];
    for (const [index, clip] of board.clips.entries()) {
      const picture = await albumFile(user, clip.image_url, `script_board clip ${index + 1} image_url`, 'image');
      const job = clipJob(album.batch_type, clip, loop);
      clips.push({ id: newPublicId(), clip, picture, job, price: job.price, modelLabel: job.modelLabel });
    }
    const row = await chargeJobs(db, user, {
      jobs: clips.map(({ id, clip, picture, job, price, modelLabel }) => ({
        media: {
          id,
          kind: 'video' as const,
          tool: BATCH_CLIP_TOOL,
          endpoint: CLIPS_ENDPOINT,
          option: job.option,
          args: {
            option: job.option,
            creation_type: job.creationType,
            ...(album.batch_type === 'ai' ? { motion_mode: 'image' } : {}),
            pose_preset: [job.preset],
            prompt: job.preset.prompt,
            prompt_strength: PROMPT_STRENGTH.default,
            batch_clip_id: clip.id,
          },
          imageUrls: [picture.ref],
          inputs: [{ field: 'image_urls', file_id: picture.file.id }],
          items: [{ status: 'new' as const }],
          version: '3',
          batchId: album.id,
        },
        price,
        reason: `${typeLabel} · ${modelLabel}`,
      })),
      // In the same commit as the debits: a retry after a crash from here on replays this album.
      idempotencyKey: key,
      // What the album holds (POST batch/{id}/hold) pays first; the rest comes from the free balance.
      hold: albumProject(album.id),
      // The album's lock first, then its owner's and its hold's (the order the hold calls take them in).
      prepare: async (tx) => {
        if (!(await lockOwnBatch(tx, album.id, user.sub))) throw batchNotFound();
      },
      finish: async (tx) => {
        const updated = await updateBatch(tx, album.id, user.sub, { scriptBoard: board, videoMediaIds: clips.map((clip) => clip.id) });
        // Deleted between the read and this commit: nothing is charged or created.
        if (!updated) throw batchNotFound();
        return updated;
      },
    });
    engine.notify();
    return { statusCode: 200, payload: await answer(request, row), mediaId: clips[0]?.id };
  }

  app.withTypeProvider<ZodTypeProvider>().post('/batch/:id/videos', { schema: { params: idParams } }, async (request, reply) => {
    const user = await auth.requireUser(request);
    // Checked before the body is read: an unknown album is a 404 whatever the body says.
    await ownBatch(request.params.id, user);
    const body = await readMultipart(request, { maxValueLength: BOARD_FIELD_MAX });
    const hash = requestDigest(`batch/${request.params.id}/videos`, request.query as Record<string, unknown>, body);
    return runIdempotent(
      db,
      request,
      reply,
      user.sub,
      hash,
      (key) => generateClips(request, user, body, key),
      async (mediaId) => {
        const batchId = await batchIdOfMedia(db, mediaId);
        const row = batchId ? await findOwnBatch(db, batchId, user.sub) : null;
        return row ? answer(request, row) : null;
      },
    );
  });

  /** The videos a join takes (the album's result videos, then its extra videos) and the sound under them. */
  async function concatInputs(
    user: AuthUser,
    album: Pick<BatchRow, 'concat_video_urls' | 'additional_videos' | 'audio_urls'>,
  ): Promise<StoredInput[]> {
    const inputs: StoredInput[] = [];
    for (const ref of album.concat_video_urls) {
      inputs.push({ field: 'concat_video_urls', file_id: (await storedFile(user, ref, 'concat_video_urls', 'video')).id });
    }
    for (const video of album.additional_videos) {
      inputs.push({ field: 'additional_videos', file_id: (await storedFile(user, video, 'additional_videos', 'video')).id });
    }
    if (inputs.length === 0) throw bad('There is nothing to join yet: add videos (concat_video_urls or additional_videos).');
    const [audio] = album.audio_urls;
    if (audio) inputs.push({ field: 'audio_urls', file_id: (await storedFile(user, audio, 'audio_urls', 'audio')).id });
    return inputs;
  }

  /**
   * Edits the album (pictures, sounds, the videos to join, extra videos, its board, free fields);
   * with `concat=true` also starts the free job joining its videos into one with the sound under it.
   */
  app.put<{ Params: { id: string } }>('/batch/:id/edit', async (request): Promise<{ data: Batch }> => {
    const user = await auth.requireUser(request);
    const album = await ownBatch(request.params.id, user);
    const body = await readMultipart(request, { maxValueLength: BOARD_FIELD_MAX });
    const change: BatchChange = { title: parseTitle(body), args: fieldsAsArgs(body) };
    const pictures = listField(body, 'image_urls');
    if (pictures !== undefined) change.imageUrls = (await albumPictures(user, pictures)).map((picture) => picture.ref);
    // Sent with only a blank value, a list is emptied (the web app's form sends nothing for an empty list).
    const audio = listField(body, 'audio_urls');
    if (audio !== undefined) {
      if (audio.length > BATCH_AUDIO_MAX) throw bad(`An album keeps at most ${BATCH_AUDIO_MAX} sounds (audio_urls).`);
      change.audioUrls = (await albumFiles(user, audio, 'audio_urls', 'audio')).map((file) => file.ref);
    }
    const videos = listField(body, 'concat_video_urls');
    if (videos !== undefined) {
      if (videos.length > CONCAT_VIDEOS_MAX) throw bad(`A join takes at most ${CONCAT_VIDEOS_MAX} videos (concat_video_urls).`);
      change.concatVideoUrls = (await albumFiles(user, videos, 'concat_video_urls', 'video')).map((file) => file.ref);
    }
    const additionalField = single(body, 'additional_videos');
    if (additionalField !== undefined) {
      const additional: StoredAdditionalVideo[] = [];
      for (const video of additionalField.trim() === '' ? [] : parseAdditionalVideos(additionalField)) {
        additional.push({ ...(await albumFile(user, video.url, 'additional_videos', 'video')).ref, label: video.label });
      }
      change.additionalVideos = additional;
    }
    const boardField = single(body, 'script_board');
    if (boardField) change.scriptBoard = checkScriptBoard(album.batch_type, parseScriptBoard(boardField));
    const concat = single(body, 'concat');
    if (concat !== undefined && concat !== 'true' && concat !== 'false') throw bad('concat must be "true" or "false".');
    // Resolved before the transaction (PGlite is one connection: a query outside an open
    // transaction would wait for it), from the album as this edit leaves it.
    const joined =
      concat === 'true'
        ? await concatInputs(user, {
            concat_video_urls: change.concatVideoUrls ?? album.concat_video_urls,
            additional_videos: change.additionalVideos ?? album.additional_videos,
            audio_urls: change.audioUrls ?? album.audio_urls,
          })
        : null;

    const row = await db.transaction(async (tx) => {
      const edited = await updateBatch(tx, album.id, user.sub, change);
      if (!edited || !joined) return edited;
      const concatId = newPublicId();
      await insertMedia(tx, {
        id: concatId,
        userSub: user.sub,
        kind: 'video',
        tool: BATCH_CONCAT_TOOL,
        endpoint: CONCAT_ENDPOINT,
        status: QUEUED_STATUS,
        // Joining is free: the clips were paid for when they were made.
        cost: BATCH_JOIN_CREDITS,
        charged: false,
        args: { concat: true },
        inputs: joined,
        items: [{ status: 'new' }],
        logoVariant: user.row.logo_variant,
        version: '3',
        batchId: album.id,
      });
      const joinedAlbum = await updateBatch(tx, album.id, user.sub, { concatMediaId: concatId });
      // The album is joined: the project has ended and what its hold still keeps returns to the balance.
      if (joinedAlbum) await closeHold(tx, user.sub, albumProject(album.id), 'ended');
      return joinedAlbum;
    });
    if (!row) throw batchNotFound();
    if (joined) engine.notify();
    return answer(request, row);
  });

  /** Removes the album with its clips and joined videos; live ones are cancelled and refunded first. */
  app.delete<{ Params: { id: string } }>('/batch/:id', async (request): Promise<{ data: { id: string; deleted: true } }> => {
    const user = await auth.requireUser(request);
    const removed = await db.transaction((tx) => deleteOwnBatch(tx, request.params.id, user.sub));
    if (removed === null) throw batchNotFound();
    for (const id of removed) {
      engine.announceEnd(id);
      // A folder left behind (a failed removal) is swept later as an orphan.
      await engine.store.removeMedia(id).catch((error: unknown) => request.log.error({ err: error, mediaId: id }, 'removing media files failed'));
    }
    return ok({ id: request.params.id, deleted: true as const });
  });

  // ---- one quote for the whole album: quote, hold, release (batch-hold.ts) -----------------------
  await batchHoldRoutes(app, deps);
}
