import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MediaKind } from '../../../src/config/enums.ts';
import { DEVELOPER_GROUP } from '../../../src/config/limits.ts';
import {
  DEFAULT_STORY_ASPECT_RATIO,
  DEFAULT_STORY_DURATION,
  DEFAULT_STORY_IMAGE_MODEL,
  DEFAULT_STORY_STYLE,
  DEFAULT_STORY_VIDEO_MODEL,
  shotCamera,
  STORY_AUDIO_MODELS,
  STORY_PARTS,
  STORY_REFERENCE_PICTURES_MAX,
  STORY_TOOLS,
  type StoryPart,
} from '../../../src/config/story.ts';
import {
  audioSource,
  elementPrompt,
  elementSource,
  idsNeedingWork,
  narrationAfter,
  sceneImageSource,
  scenePrompt,
  sceneVideoPrompt,
  sceneVideoSource,
  storyAudioPrice,
  storyConcatSource,
  storyImageModel,
  storyPartPrice,
  storyPartStates,
  storyVideoModel,
  type StoryLook,
} from '../../../src/lib/story.ts';
import type { Story, StoryAsset, Storyboard, StorySummary } from '../../../src/services/schemas/story.ts';
import { PROMPT_STRENGTH } from '../../../src/config/video-creation.ts';
import { appendLedgerEntry, creditBalance, isNegativeBalance } from '../db/credit-ledger.ts';
import type { MediaFileRow } from '../db/files.ts';
import { bindIdempotencyMedia } from '../db/idempotency.ts';
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
  type StoryMediaInfo,
  type StoryRow,
} from '../db/stories.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { runIdempotent, type HandlerAnswer } from './idempotent.ts';
import { resolveMediaLink } from './image-inputs.ts';
import type { LinkMaker } from './media-answer.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import { readMultipart, requestDigest, single, type MultipartBody } from './multipart-body.ts';
import { writeStoryboardFor } from './story-writer.ts';
import { boardRevision, storyAnswer, storySummary } from './story-answer.ts';
import {
  bad,
  checkStoryboard,
  nameList,
  parseAspectRatio,
  parseDuration,
  parseIdea,
  parseImageModel,
  parseStep,
  parseStyle,
  parseTitle,
  parseVideoModel,
  saveStorySchema,
  staleBoard,
  type CheckedBoard,
} from './story-input.ts';
import type { AuthUser } from './user-auth.ts';

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
/** What the story's jobs record as their endpoint. */
const ENDPOINTS: Readonly<Record<StoryPart, string>> = {
  elements: 'story/elements',
  scenes: 'story/scenes',
  videos: 'story/videos',
  audio: 'story/audio',
  concat: 'story/concat',
};
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

/**
 * A board whose scenes changed but whose narration was sent as stored (a caller that does not make
 * it follow them): the narration takes the scenes' new words here, so its sound goes stale with them.
 */
function followNarration(stored: Storyboard, sent: Storyboard): Storyboard {
  if (sent.audio.text !== stored.audio.text) return sent;
  const text = narrationAfter(stored, sent);
  return text === sent.audio.text ? sent : { ...sent, audio: { ...sent.audio, text } };
}

const lookOf = (story: Pick<StoryRow, 'style' | 'aspect_ratio'>): StoryLook => ({ style: story.style, aspect_ratio: story.aspect_ratio });

/** A job a generation call is about to create: its row, its price, and where its result goes in the board. */
interface PlannedJob {
  id: string;
  kind: MediaKind;
  tool: string;
  endpoint: string;
  option: string;
  args: Record<string, unknown>;
  inputs: StoredInput[];
  imageUrls: StoredImageRef[];
  version?: string;
  price: number;
  reason: string;
  /** The board with this job's result named in it. */
  place: (board: Storyboard, asset: StoryAsset) => Storyboard;
  /** What the board names now where this job's result goes (a live job there refuses the call). */
  current: (board: Storyboard) => StoryAsset | null | undefined;
  source: string;
}

/** The first result file of a succeeded job (what the next step draws from). */
function resultFile(info: StoryMediaInfo | undefined): string | null {
  if (!info || !info.status.startsWith('success')) return null;
  return info.items[0]?.file_id ?? null;
}

export async function storyRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, engine, signer } = deps;
  const linksFor = (request: FastifyRequest): LinkMaker => ({ origin: requestOrigin(request), signer });

  async function ownStory(id: string, user: AuthUser): Promise<StoryRow> {
    const row = await findOwnStory(db, id, user.sub);
    if (!row) throw storyNotFound();
    return row;
  }

  /** A board sent from an older revision than the stored one is refused (absent: not checked, as before revisions). */
  function checkRevision(story: StoryRow, revision: string | undefined): void {
    if (revision !== undefined && revision.trim() !== '' && revision.trim() !== boardRevision(story.storyboard)) throw staleBoard();
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
    const charged = !user.groups.includes(DEVELOPER_GROUP);
    const total = jobs.reduce((sum, job) => sum + job.price, 0);
    let row: StoryRow | null;
    try {
      row = await db.transaction(async (tx) => {
        // Re-read and lock the story: a concurrent call waits here, then sees this one's jobs.
        const fresh = await lockOwnStory(tx, story.id, user.sub);
        // Deleted between the read and this commit: nothing is charged or created.
        if (!fresh) throw storyNotFound();
        const targets = jobs.map((job) => job.current(fresh.storyboard)?.media_id).filter((id): id is string => id !== undefined);
        const targetInfo = await storyMediaInfo(tx, targets);
        if (targets.some((id) => isLive(targetInfo.get(id)?.status ?? ''))) throw partRunning();
        let placed = fresh.storyboard;
        for (const job of jobs) {
          const cost = charged ? job.price : 0;
          await insertMedia(tx, {
            id: job.id,
            userSub: user.sub,
            kind: job.kind,
            tool: job.tool,
            endpoint: job.endpoint,
            option: job.option,
            status: QUEUED_STATUS,
            cost,
            charged: cost > 0,
            args: job.args,
            imageUrls: job.imageUrls,
            inputs: job.inputs,
            items: [{ status: 'new' }],
            logoVariant: user.row.logo_variant,
            version: job.version,
            storyId: story.id,
          });
          if (cost > 0) await appendLedgerEntry(tx, { userSub: user.sub, amount: -cost, kind: 'debit', reason: job.reason, jobId: job.id });
          placed = job.place(placed, { media_id: job.id, source: job.source });
        }
        const updated = await updateStory(tx, story.id, user.sub, { storyboard: placed });
        // Deleted between the read and this commit: nothing is charged or created.
        if (!updated) throw storyNotFound();
        if (key && jobs[0]) await bindIdempotencyMedia(tx, user.sub, key, jobs[0].id);
        return updated;
      });
    } catch (error) {
      if (!isNegativeBalance(error)) throw error;
      throw new HttpError(402, DETAILS.notEnoughCredits(total, await creditBalance(db, user.sub)));
    }
    engine.notify();
    return { statusCode: 200, payload: await answer(request, row), mediaId: jobs[0]?.id };
  }

  /** The ids a call makes: the ones sent (each must be one of `known`), else every one needing work. */
  function chosenIds(body: MultipartBody, known: readonly string[], needing: string[], what: string): string[] {
    const sent = listField(body, 'ids');
    if (sent === undefined || sent.length === 0) {
      if (needing.length === 0) throw bad(`Nothing to make: every ${what} is made and up to date.`);
      return needing;
    }
    const unknown = sent.find((id) => !known.includes(id));
    if (unknown !== undefined) throw bad(`ids: "${unknown}" is not in this storyboard.`);
    return known.filter((id) => sent.includes(id));
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

  function planElements(story: StoryRow, { board, statusOf }: CheckedBoard, body: MultipartBody): PlannedJob[] {
    const look = lookOf(story);
    const states = storyPartStates(look, board, statusOf);
    const ids = chosenIds(body, board.elements.map((element) => element.id), idsNeedingWork(states.elements), 'element picture');
    const price = storyPartPrice(board, 'elements');
    const model = storyImageModel(board.image_model)?.label ?? board.image_model;
    const firstCharacter = board.elements.find((element) => element.kind === 'character')?.id;
    const reference = story.image_urls[0];
    return board.elements
      .filter((element) => ids.includes(element.id))
      .map((element) => {
        const ref = element.id === firstCharacter && reference && 'file_id' in reference ? reference : null;
        return {
          id: newPublicId(),
          kind: 'image' as const,
          tool: STORY_TOOLS.element,
          endpoint: ENDPOINTS.elements,
          option: board.image_model,
          args: {
            prompt: elementPrompt(look, element),
            aspect_ratio: element.kind === 'place' ? story.aspect_ratio : '1:1',
            story_part: 'elements',
            element_id: element.id,
          },
          inputs: ref ? [{ field: 'image_urls', file_id: ref.file_id }] : [],
          imageUrls: ref ? [ref] : [],
          price,
          reason: `AI Story · picture of ${element.name} · ${model}`,
          source: elementSource(look, board, element),
          place: (current, asset) => ({
            ...current,
            elements: current.elements.map((item) => (item.id === element.id ? { ...item, image: asset } : item)),
          }),
          current: (current) => current.elements.find((item) => item.id === element.id)?.image,
        };
      });
  }

  function planScenes(story: StoryRow, { board, statusOf, media }: CheckedBoard, body: MultipartBody): PlannedJob[] {
    const look = lookOf(story);
    const states = storyPartStates(look, board, statusOf);
    const ids = chosenIds(body, board.scenes.map((scene) => scene.id), idsNeedingWork(states.sceneImages), 'scene picture');
    const scenes = board.scenes.filter((scene) => ids.includes(scene.id));
    const elementPicture = (elementId: string): string | null => {
      const image = board.elements.find((element) => element.id === elementId)?.image;
      return image ? resultFile(media.get(image.media_id)) : null;
    };
    const missing = board.elements.filter((element) => scenes.some((scene) => scene.element_ids.includes(element.id)) && !elementPicture(element.id));
    if (missing.length > 0) throw bad(`Make the pictures of ${nameList(missing.map((element) => element.name))} first.`);
    const price = storyPartPrice(board, 'scenes');
    const model = storyImageModel(board.image_model)?.label ?? board.image_model;
    return scenes.map((scene) => {
      const inputs = scene.element_ids.map((elementId) => ({ field: 'image_urls', file_id: elementPicture(elementId) ?? '' }));
      const number = board.scenes.indexOf(scene) + 1;
      return {
        id: newPublicId(),
        kind: 'image' as const,
        tool: STORY_TOOLS.scene,
        endpoint: ENDPOINTS.scenes,
        option: board.image_model,
        args: {
          prompt: scenePrompt(look, scene),
          aspect_ratio: story.aspect_ratio,
          shot: scene.shot,
          // Parallel to the inputs: a place's picture becomes the scene's backdrop, the others its figures.
          element_kinds: scene.element_ids.map((elementId) => board.elements.find((element) => element.id === elementId)?.kind ?? 'character'),
          story_part: 'scenes',
          scene_id: scene.id,
        },
        inputs,
        imageUrls: inputs.map((input) => ({ file_id: input.file_id })),
        price,
        reason: `AI Story · picture of scene ${number} · ${model}`,
        source: sceneImageSource(look, board, scene),
        place: (current, asset) => ({ ...current, scenes: current.scenes.map((item) => (item.id === scene.id ? { ...item, image: asset } : item)) }),
        current: (current) => current.scenes.find((item) => item.id === scene.id)?.image,
      };
    });
  }

  function planVideos(story: StoryRow, { board, statusOf, media }: CheckedBoard, body: MultipartBody): PlannedJob[] {
    const look = lookOf(story);
    const states = storyPartStates(look, board, statusOf);
    const ids = chosenIds(body, board.scenes.map((scene) => scene.id), idsNeedingWork(states.sceneVideos), 'scene video');
    const scenes = board.scenes.filter((scene) => ids.includes(scene.id));
    const pictureOf = (scene: (typeof scenes)[number]): string | null => (scene.image ? resultFile(media.get(scene.image.media_id)) : null);
    const missing = scenes.filter((scene) => !pictureOf(scene)).map((scene) => String(board.scenes.indexOf(scene) + 1));
    if (missing.length > 0) throw bad(`Make the ${missing.length === 1 ? 'picture of scene' : 'pictures of scenes'} ${nameList(missing)} first.`);
    const price = storyPartPrice(board, 'videos');
    const model = storyVideoModel(board.video_model)?.label ?? board.video_model;
    return scenes.map((scene) => {
      const picture = pictureOf(scene) ?? '';
      const prompt = sceneVideoPrompt(scene);
      const number = board.scenes.indexOf(scene) + 1;
      return {
        id: newPublicId(),
        kind: 'video' as const,
        tool: STORY_TOOLS.video,
        endpoint: ENDPOINTS.videos,
        option: board.video_model,
        version: '3',
        args: {
          option: board.video_model,
          creation_type: 'ai-motion',
          motion_mode: 'image',
          pose_preset: [
            {
              motion_type: shotCamera(scene.shot).value,
              prompt,
              quantity: 1,
              motion_amount: 5,
              motion_length: scene.duration,
              loop: 0,
              model: board.video_model,
              camera_path: null,
            },
          ],
          prompt,
          prompt_strength: PROMPT_STRENGTH.default,
          aspect_ratio: story.aspect_ratio,
          story_part: 'videos',
          scene_id: scene.id,
        },
        inputs: [{ field: 'image_urls', file_id: picture }],
        imageUrls: [{ file_id: picture }],
        price,
        reason: `AI Story · video of scene ${number} · ${model}`,
        source: sceneVideoSource(board, scene),
        place: (current, asset) => ({ ...current, scenes: current.scenes.map((item) => (item.id === scene.id ? { ...item, video: asset } : item)) }),
        current: (current) => current.scenes.find((item) => item.id === scene.id)?.video,
      };
    });
  }

  function planAudio({ board }: CheckedBoard): PlannedJob[] {
    const { audio } = board;
    if (audio.kind === 'none') throw bad('The storyboard has no sound to make: choose a narration or music first.');
    if (audio.text.trim() === '') throw bad(audio.kind === 'speech' ? 'Write the narration first.' : 'Describe the music first.');
    const model = STORY_AUDIO_MODELS[audio.kind];
    return [
      {
        id: newPublicId(),
        kind: 'audio',
        tool: STORY_TOOLS.audio,
        endpoint: ENDPOINTS.audio,
        option: model.option,
        args: {
          prompt: audio.text.trim(),
          ...(audio.kind === 'speech' ? { voice: audio.voice } : {}),
          audio_kind: audio.kind,
          duration: board.scenes.reduce((sum, scene) => sum + scene.duration, 0),
          story_part: 'audio',
        },
        inputs: [],
        imageUrls: [],
        price: storyAudioPrice(audio.kind),
        reason: `AI Story · ${audio.kind === 'speech' ? 'narration' : 'music'} · ${model.option}`,
        source: audioSource(audio),
        place: (current, asset) => ({ ...current, audio: { ...current.audio, track: asset } }),
        current: (current) => current.audio.track,
      },
    ];
  }

  type Planner = (story: StoryRow, checked: CheckedBoard, body: MultipartBody) => PlannedJob[];
  const PLANNERS: Readonly<Record<'elements' | 'scenes' | 'videos' | 'audio', Planner>> = {
    elements: planElements,
    scenes: planScenes,
    videos: planVideos,
    audio: (_story, checked) => planAudio(checked),
  };

  for (const part of ['elements', 'scenes', 'videos', 'audio'] as const) {
    app.post<{ Params: { id: string } }>(`/story/:id/${part}`, async (request, reply) => {
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
          const jobs = PLANNERS[part](story, checked, body);
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
        endpoint: ENDPOINTS.concat,
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
}
