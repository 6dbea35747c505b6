import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DEFAULT_STORY_ASPECT_RATIO,
  DEFAULT_STORY_DURATION,
  DEFAULT_STORY_IMAGE_MODEL,
  DEFAULT_STORY_STYLE,
  DEFAULT_STORY_VIDEO_MODEL,
  STORY_PARTS,
  STORY_REFERENCE_PICTURES_MAX,
  STORY_TOOLS,
  type StoryPart,
} from '../../../src/config/story.ts';
import { storyConcatSource } from '../../../src/lib/story.ts';
import type { Story, Storyboard, StorySummary } from '../../../src/services/schemas/story.ts';
import { closeHold } from '../db/credit-holds.ts';
import type { MediaFileRow } from '../db/files.ts';
import { endJobWithRefund, findMedia, insertMedia, isLive, newPublicId, QUEUED_STATUS, type StoredImageRef, type StoredInput } from '../db/media.ts';
import {
  deleteOwnStory,
  findOwnStory,
  insertStory,
  liveStoryJobs,
  lockOwnStory,
  listOwnStories,
  storyIdOfMedia,
  storyMediaInfo,
  updateStory,
  type StoryChange,
  type StoryRow,
} from '../db/stories.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { runIdempotent, type HandlerAnswer } from './idempotent.ts';
import { resolveMediaLink } from './image-inputs.ts';
import type { LinkMaker } from './media-answer.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import { readMultipart, requestDigest, single, type MultipartBody } from './multipart-body.ts';
import { storyHoldRoutes, storyProject } from './story-hold.ts';
import { storyTakeRoutes } from './story-takes.ts';
import { writeStoryboardFor } from './story-writer.ts';
import { storyAnswer, storySummary } from './story-answer.ts';
import {
  bad,
  checkRevision,
  checkStoryboard,
  followNarration,
  parseAspectRatio,
  parseDuration,
  parseIdea,
  parseImageModel,
  parseStep,
  parseStyle,
  parseTitle,
  parseVideoModel,
  saveStorySchema,
  type CheckedBoard,
} from './story-input.ts';
import { idParams } from './route-schemas.ts';
import type { AuthUser } from './user-auth.ts';
import { chargeJobs } from '../jobs/charge.ts';
import { jobTargets, paidStoryJob, placeJobs, STORY_ENDPOINTS, STORY_PLANNERS, type PlannedJob } from '../jobs/story-plan.ts';

/**
 * SPEC §7 story calls and Kinora's additions (GET story, GET/PUT/DELETE story/{id},
 * story/{id}/audio, story/{id}/cancel): an idea becomes a storyboard (written here, free), whose
 * elements, scenes, videos and sound are made as paid jobs on the job engine — one job per part,
 * every debit of a call in one transaction — and whose videos are joined into one film (free).
 */

/** A storyboard of 12 scenes and 12 elements with long texts is far more than the usual field limit. */
const BOARD_FIELD_MAX = 120_000;
/** Videos one join takes (a board's scenes, 12 at most). */
const CONCAT_VIDEOS = { min: 1, max: 12 } as const;
/** The media `tool` of each part (PUT story/{id}/cancel). */
const PART_TOOLS: Readonly<Record<StoryPart, string>> = {
  elements: STORY_TOOLS.element,
  scenes: STORY_TOOLS.scene,
  videos: STORY_TOOLS.video,
  audio: STORY_TOOLS.audio,
  concat: STORY_TOOLS.concat,
};

const NOT_FOUND = 'Failed to find a Story with this id';
const storyNotFound = (): HttpError => new HttpError(404, NOT_FOUND);
const concatRunning = (): HttpError => new HttpError(409, 'The film is already being joined.');
const partRunning = (): HttpError => new HttpError(409, 'This part is already being made.');

/** Values of a repeated field without the blanks an empty form input leaves; undefined when not sent. */
function listField(body: MultipartBody, name: string): string[] | undefined {
  const values = body.fields[name];
  if (values === undefined) return undefined;
  return values.map((value) => value.trim()).filter((value) => value !== '');
}

export async function storyRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, engine, signer } = deps;
  const linksFor = (request: FastifyRequest): LinkMaker => ({ origin: requestOrigin(request), signer });

  async function ownStory(id: string, user: AuthUser): Promise<StoryRow> {
    const row = await findOwnStory(db, id, user.sub);
    if (!row) throw storyNotFound();
    return row;
  }

  async function answer(request: FastifyRequest, row: StoryRow): Promise<{ data: Story }> {
    return ok(await storyAnswer(db, row, linksFor(request)));
  }

  // ---- reading and writing stories ------------------------------------------------------------

  app.get('/story', async (request): Promise<{ data: { items: StorySummary[] } }> => {
    const user = await auth.requireUser(request);
    const links = linksFor(request);
    const items: StorySummary[] = [];
    for (const row of await listOwnStories(db, user.sub)) items.push(await storySummary(db, row, links));
    return ok({ items });
  });

  /** A new story: the idea, its settings and reference pictures; its storyboard is written from the idea (free). */
  app.post('/story', async (request): Promise<{ data: Story }> => {
    const user = await auth.requireUser(request);
    const body = await readMultipart(request);
    const idea = parseIdea(single(body, 'idea'));
    const durationField = single(body, 'duration');
    const duration = durationField === undefined || durationField.trim() === '' ? DEFAULT_STORY_DURATION : parseDuration(durationField);
    const ratioField = single(body, 'aspect_ratio');
    const aspectRatio = ratioField === undefined || ratioField.trim() === '' ? DEFAULT_STORY_ASPECT_RATIO : parseAspectRatio(ratioField);
    const styleField = single(body, 'style');
    const style = styleField === undefined || styleField.trim() === '' ? DEFAULT_STORY_STYLE : parseStyle(styleField);
    const title = parseTitle(single(body, 'title'));
    const imageModel = parseImageModel(single(body, 'image_model')?.trim() || DEFAULT_STORY_IMAGE_MODEL);
    const videoModel = parseVideoModel(single(body, 'video_model')?.trim() || DEFAULT_STORY_VIDEO_MODEL);
    const links = listField(body, 'image_urls') ?? [];
    if (links.length > STORY_REFERENCE_PICTURES_MAX) {
      throw bad(`A story starts from at most ${STORY_REFERENCE_PICTURES_MAX} reference pictures (image_urls); you sent ${links.length}.`);
    }
    const imageUrls: StoredImageRef[] = [];
    for (const link of links) {
      const file = await resolveMediaLink(deps, user, link, 'image_urls', { kind: 'image', required: true });
      if (!file) throw bad(DETAILS.notAKinoraFile('image_urls'));
      imageUrls.push(file.user_sub === user.sub ? { file_id: file.id } : { url: link });
    }
    const storyboard = await writeStoryboardFor(deps.provider, { idea, duration, title, imageModel, videoModel });
    const row = await insertStory(db, { userSub: user.sub, idea, duration, aspectRatio, style, imageUrls, storyboard });
    return answer(request, row);
  });

  app.get<{ Params: { id: string } }>('/story/:id', async (request): Promise<{ data: Story }> => {
    const user = await auth.requireUser(request);
    return answer(request, await ownStory(request.params.id, user));
  });

  /**
   * Saves the person's edits: the storyboard (checked against this story), the step they are on,
   * the idea and its settings; `rewrite` writes the scenes and elements again from the idea (the
   * jobs of the old ones stay until the story is deleted).
   */
  app.put<{ Params: { id: string } }>('/story/:id', async (request): Promise<{ data: Story }> => {
    const user = await auth.requireUser(request);
    const story = await ownStory(request.params.id, user);
    const body = parseInput(saveStorySchema, request.body ?? {});
    const change: StoryChange = {};
    if (body.idea !== undefined) change.idea = parseIdea(body.idea);
    if (body.duration !== undefined) change.duration = parseDuration(body.duration);
    if (body.aspect_ratio !== undefined) change.aspectRatio = parseAspectRatio(body.aspect_ratio);
    if (body.style !== undefined) change.style = parseStyle(body.style);
    if (body.step !== undefined) change.step = parseStep(body.step);
    // Written before the story is locked: the writer may ask a remote model.
    const written = body.rewrite
      ? await writeStoryboardFor(deps.provider, {
          idea: change.idea ?? story.idea,
          duration: change.duration ?? story.duration,
          title: story.storyboard.title.trim() || undefined,
          imageModel: story.storyboard.image_model,
          videoModel: story.storyboard.video_model,
        })
      : null;
    // Checked and written on the locked story: of two saves from the same revision, the second is refused.
    const row = await db.transaction(async (tx) => {
      const fresh = await lockOwnStory(tx, story.id, user.sub);
      if (!fresh) throw storyNotFound();
      let board: Storyboard | undefined;
      if (body.storyboard !== undefined) {
        checkRevision(fresh, body.revision);
        board = followNarration(fresh.storyboard, (await checkStoryboard(tx, fresh.id, body.storyboard)).board);
      }
      if (written) {
        const current = board ?? fresh.storyboard;
        // The sound is the person's choice; a narration takes the new scenes' words.
        const audio = current.audio.kind === 'speech' ? { ...current.audio, text: written.audio.text } : current.audio;
        board = { ...current, title: current.title.trim() || written.title, scenes: written.scenes, elements: written.elements, audio };
      }
      if (board) change.storyboard = board;
      const updated = await updateStory(tx, fresh.id, user.sub, change);
      if (!updated) throw storyNotFound();
      return updated;
    });
    return answer(request, row);
  });

  /** Removes the story with every job it made; live ones are cancelled and refunded first. */
  app.delete<{ Params: { id: string } }>('/story/:id', async (request): Promise<{ data: { id: string; deleted: true } }> => {
    const user = await auth.requireUser(request);
    const removed = await db.transaction((tx) => deleteOwnStory(tx, request.params.id, user.sub));
    if (removed === null) throw storyNotFound();
    for (const id of removed) {
      engine.announceEnd(id);
      // A folder left behind (a failed removal) is swept later as an orphan.
      await engine.store.removeMedia(id).catch((error: unknown) => request.log.error({ err: error, mediaId: id }, 'removing media files failed'));
    }
    return ok({ id: request.params.id, deleted: true as const });
  });

  // ---- paid parts ---------------------------------------------------------------------------

  /**
   * Creates the planned jobs, every debit in one transaction: either all are paid for and queued
   * with the board naming them, or (402) nothing was made. The first job's id binds the
   * Idempotency-Key, so a retry replays the story as it is then.
   */
  async function startJobs(request: FastifyRequest, user: AuthUser, story: StoryRow, jobs: PlannedJob[], key: string | null): Promise<HandlerAnswer> {
    const row = await chargeJobs(db, user, {
      jobs: jobs.map((job) => paidStoryJob(story, job)),
      idempotencyKey: key,
      // What the story holds (POST story/{id}/hold) pays first; the rest comes from the free balance.
      hold: storyProject(story.id),
      prepare: async (tx) => {
        // Re-read and lock the story: a concurrent call waits here, then sees this one's jobs.
        const fresh = await lockOwnStory(tx, story.id, user.sub);
        // Deleted between the read and this commit: nothing is charged or created.
        if (!fresh) throw storyNotFound();
        const targets = jobTargets(fresh.storyboard, jobs);
        const targetInfo = await storyMediaInfo(tx, targets);
        if (targets.some((id) => isLive(targetInfo.get(id)?.status ?? ''))) throw partRunning();
        return fresh;
      },
      finish: async (tx, _rows, fresh) => {
        const updated = await updateStory(tx, story.id, user.sub, { storyboard: placeJobs(fresh.storyboard, jobs) });
        // Deleted between the read and this commit: nothing is charged or created.
        if (!updated) throw storyNotFound();
        return updated;
      },
    });
    engine.notify();
    return { statusCode: 200, payload: await answer(request, row), mediaId: jobs[0]?.id };
  }

  /** The storyboard a generation call works on: the one sent (checked against the stored revision, and saved), else the stored one. */
  async function boardOf(story: StoryRow, user: AuthUser, body: MultipartBody): Promise<{ story: StoryRow; checked: CheckedBoard }> {
    const field = single(body, 'storyboard');
    if (field === undefined) return { story, checked: await checkStoryboard(db, story.id, story.storyboard) };
    return db.transaction(async (tx) => {
      const fresh = await lockOwnStory(tx, story.id, user.sub);
      if (!fresh) throw storyNotFound();
      checkRevision(fresh, single(body, 'revision'));
      const checked = await checkStoryboard(tx, story.id, field);
      const board = followNarration(fresh.storyboard, checked.board);
      const saved = await updateStory(tx, story.id, user.sub, { storyboard: board });
      if (!saved) throw storyNotFound();
      return { story: saved, checked: { ...checked, board } };
    });
  }

  for (const part of ['elements', 'scenes', 'videos', 'audio'] as const) {
    app.withTypeProvider<ZodTypeProvider>().post(`/story/:id/${part}`, { schema: { params: idParams } }, async (request, reply) => {
      const user = await auth.requireUser(request);
      // Checked before the body is read: an unknown story is a 404 whatever the body says.
      await ownStory(request.params.id, user);
      const body = await readMultipart(request, { maxValueLength: BOARD_FIELD_MAX });
      const hash = requestDigest(`story/${request.params.id}/${part}`, request.query as Record<string, unknown>, body);
      return runIdempotent(
        db,
        request,
        reply,
        user.sub,
        hash,
        async (key) => {
          const { story, checked } = await boardOf(await ownStory(request.params.id, user), user, body);
          const jobs = STORY_PLANNERS[part](story, checked, listField(body, 'ids'));
          return startJobs(request, user, story, jobs, key);
        },
        async (mediaId) => {
          const storyId = await storyIdOfMedia(db, mediaId);
          const row = storyId ? await findOwnStory(db, storyId, user.sub) : null;
          return row ? answer(request, row) : null;
        },
      );
    });
  }

  // ---- the film -------------------------------------------------------------------------------

  /** The free job joining the scenes' videos (in the order sent) into one film, with the sound under it. */
  app.post<{ Params: { id: string } }>('/story/:id/concat', async (request): Promise<{ data: Story }> => {
    const user = await auth.requireUser(request);
    const story = await ownStory(request.params.id, user);
    const body = await readMultipart(request);
    const videoLinks = listField(body, 'concat_video_urls') ?? [];
    if (videoLinks.length < CONCAT_VIDEOS.min || videoLinks.length > CONCAT_VIDEOS.max) {
      throw bad(`A film joins ${CONCAT_VIDEOS.min} to ${CONCAT_VIDEOS.max} videos (concat_video_urls); you sent ${videoLinks.length}.`);
    }
    const audioLinks = listField(body, 'audio_urls') ?? [];
    if (audioLinks.length > 1) throw bad('A film takes at most one sound (audio_urls).');
    const videos: MediaFileRow[] = [];
    for (const link of videoLinks) {
      const file = await resolveMediaLink(deps, user, link, 'concat_video_urls', { kind: 'video', required: true });
      if (file) videos.push(file);
    }
    const owners = await storyMediaInfo(
      db,
      videos.map((file) => file.media_id),
    );
    for (const [index, file] of videos.entries()) {
      const owner = owners.get(file.media_id);
      // Only the scenes' videos: never an earlier film of this story (nor anything else it made).
      if (owner?.story_id !== story.id || owner.tool !== STORY_TOOLS.video) throw bad(`concat_video_urls ${index + 1} is not a video of this story.`);
    }
    const audioLink = audioLinks[0];
    const audio = audioLink ? await resolveMediaLink(deps, user, audioLink, 'audio_urls', { kind: 'audio', required: true }) : null;
    const inputs: StoredInput[] = [
      ...videos.map((file) => ({ field: 'concat_video_urls', file_id: file.id })),
      ...(audio ? [{ field: 'audio_urls', file_id: audio.id }] : []),
    ];
    const concatId = newPublicId();
    const row = await db.transaction(async (tx) => {
      // Checked on the locked story: of two concurrent joins the second sees the first's job.
      const fresh = await lockOwnStory(tx, story.id, user.sub);
      if (!fresh) throw storyNotFound();
      if (fresh.concat_media_id) {
        const current = await findMedia(tx, fresh.concat_media_id);
        if (current && isLive(current.status)) throw concatRunning();
      }
      await insertMedia(tx, {
        id: concatId,
        userSub: user.sub,
        kind: 'video',
        tool: STORY_TOOLS.concat,
        endpoint: STORY_ENDPOINTS.concat,
        status: QUEUED_STATUS,
        // Joining is free: the videos and the sound were paid for when they were made.
        cost: 0,
        charged: false,
        args: { concat: true, story_part: 'concat' },
        inputs,
        items: [{ status: 'new' }],
        logoVariant: user.row.logo_variant,
        version: '3',
        storyId: story.id,
      });
      const source = storyConcatSource(
        videos.map((file) => file.media_id),
        audio?.media_id ?? null,
      );
      const updated = await updateStory(tx, story.id, user.sub, { concatMediaId: concatId, concatSource: source });
      if (!updated) throw storyNotFound();
      // The film is joined: the project has ended and what its hold still keeps returns to the balance.
      await closeHold(tx, user.sub, storyProject(story.id), 'ended');
      return updated;
    });
    engine.notify();
    return answer(request, row);
  });

  /** Cancels every live job of one part of the story; each is refunded. */
  app.put<{ Params: { id: string } }>('/story/:id/cancel', async (request): Promise<{ data: Story }> => {
    const user = await auth.requireUser(request);
    const story = await ownStory(request.params.id, user);
    const part = (request.body as { part?: unknown } | undefined)?.part;
    if (typeof part !== 'string' || !(STORY_PARTS as readonly string[]).includes(part)) {
      throw bad(`part must be one of ${STORY_PARTS.join(', ')}.`);
    }
    const ids = await liveStoryJobs(db, story.id, PART_TOOLS[part as StoryPart]);
    const ended = await db.transaction(async (tx) => {
      const done: string[] = [];
      for (const id of ids) if (await endJobWithRefund(tx, id, 'cancelled', null)) done.push(id);
      return done;
    });
    for (const id of ended) engine.announceEnd(id);
    return answer(request, await ownStory(story.id, user));
  });

  // ---- takes: pick the active one, undo the last regeneration (story-takes.ts) ------------------
  await storyTakeRoutes(app, deps);

  // ---- one quote for the whole film: quote, hold, release (story-hold.ts) -----------------------
  await storyHoldRoutes(app, deps);
}
