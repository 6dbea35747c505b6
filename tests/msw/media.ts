import { http } from 'msw';
import { ASSET_TOOLS } from '@/config/asset-tools';
import {
  endpointFor,
  GENERATION_TOOLS,
  generationToolByEndpoint,
  toolEndpoints,
  UPLOAD_ENDPOINTS,
  type GenerationToolSpec,
} from '@/config/generation-tools';
import type { MediaKind } from '@/config/enums';
import { runPrice } from '@/config/image-model-capabilities';
import { MESSAGES } from '@/config/messages';
import { MOTION_MODELS } from '@/config/motion-models';
import {
  PARALLAX_OPTION,
  VIDEO_CREATION_TOOLS,
  videoJobCost,
  type VideoCreationType,
} from '@/config/video-creation';
import { parsePosePreset, type PosePreset } from '@/lib/pose-preset';
import { batchFolders } from '@/lib/result-paths';
import { resultLabel, type ResultLabelKind } from '@/lib/result-labels';
import {
  answer,
  API,
  callOf,
  detail,
  endedItem,
  finishedItem,
  isSignedIn,
  mediaRecord,
  signedFileUrl,
  tick as tickOf,
  type FakeMediaRecord,
} from './data';
// Not imported from handlers.ts, which registers these handlers: its value would not exist yet.
import { fakeApi } from './handlers';

export type { FakeMediaRecord } from './data';

/**
 * A small stand-in for the media API of issues 4 and 5 (SPEC §7 media, image, video, audio, text),
 * enough for the screens: a job store where a submitted job is queued, processes for
 * `pollsToFinish` processing-status polls and then ends as `outcome` says; cancel with refund; the
 * owner's listing per tool; image, video and audio uploads; the prompt helper. Every call of every
 * generation tool is answered (Edit Video: one per operation, and the model must be that call's);
 * video creation jobs (`POST media` with `pose_preset`) end with one video per preset × quantity,
 * each with its GIF, folder and label. Credits are the ones of `fakeApi`
 * (tests/msw/handlers.ts), so the header balance follows debits and refunds.
 * Tests shape it through `fakeMedia`; `resetFakeMedia()` runs after every test.
 */

type Outcome = 'success' | 'failed' | 'nsfw';

interface FakeMediaState {
  media: Map<string, FakeMediaRecord>;
  /** Processing-status polls a job answers "processing" to before it ends. */
  pollsToFinish: number;
  /** How the next jobs end. */
  outcome: Outcome;
  /** Idempotency-Key → media id of the first answer. */
  idempotency: Map<string, string>;
  /** Requests in order, e.g. "POST image/text-2-image", "GET media/m1/processing-status". */
  calls: string[];
  /** Fields of each generation call, in order. */
  submissions: { endpoint: string; fields: Record<string, string | string[]>; idempotencyKey: string | null }[];
  /** The prompt helper's answers, per option; default: derived from the prompt. */
  promptAnswers: Map<string, string>;
  nextId: number;
  clock: number;
}

const freshState = (): FakeMediaState => ({
  media: new Map(),
  pollsToFinish: 2,
  outcome: 'success',
  idempotency: new Map(),
  calls: [],
  submissions: [],
  promptAnswers: new Map(),
  nextId: 1,
  clock: Date.parse('2025-01-01T12:00:00Z'),
});

export const fakeMedia: FakeMediaState = freshState();

/** Polls counted per media id. */
const polls = new Map<string, number>();

export function resetFakeMedia(): void {
  Object.assign(fakeMedia, freshState());
  polls.clear();
}

const tick = (): string => tickOf(fakeMedia);
const record = (request: Request): void => {
  fakeMedia.calls.push(callOf(request));
};
const unauthorized = () => detail(401, MESSAGES.notAuthenticated);

/** A media item as the API answers it; tests may add their own through `addMedia`. */
export function buildMedia(overrides: Partial<FakeMediaRecord> = {}): FakeMediaRecord {
  const id = overrides.id ?? `m${fakeMedia.nextId++}`;
  return mediaRecord(id, tick(), overrides);
}

export function addMedia(overrides: Partial<FakeMediaRecord> = {}): FakeMediaRecord {
  const media = buildMedia(overrides);
  fakeMedia.media.set(media.id, media);
  return media;
}

// SPEC §4 as the local server ends them: images success_image, videos and audio success.
const SUCCESS_STATUS: Record<MediaKind, string> = { image: 'success_image', video: 'success', audio: 'success' };
const LIVE = (status: string): boolean => status.startsWith('queue') || status.startsWith('processing');

function finish(media: FakeMediaRecord, outcome: Outcome): void {
  const now = tick();
  media.updated_at = now;
  media.finished_at = now;
  media.progress = 100;
  if (outcome === 'success' && media.kind === 'video') {
    media.status = SUCCESS_STATUS.video;
    media.items = videoItems(media);
    media.results = media.items.map((item) => item.url ?? '');
    return;
  }
  const pictures = Number(media.args.num_images);
  if (outcome === 'success' && media.kind === 'image' && Number.isInteger(pictures) && pictures > 1) {
    // Issue 21 item 7: a run of several pictures, each with its own seed (seed, seed + 1, …).
    media.status = SUCCESS_STATUS.image;
    media.items = Array.from({ length: pictures }, (_, index) =>
      finishedItem('image', signedFileUrl(`${media.id}-result-${index + 1}.png`), {
        thumbnail_url: signedFileUrl(`${media.id}-thumbnail-${index + 1}.jpg`),
        file_id: `${media.id}-result-${index + 1}`,
        seed: (media.seed ?? 0) + index,
      }),
    );
    media.results = media.items.map((item) => item.url ?? '');
    return;
  }
  if (outcome === 'success') {
    const extension = media.kind === 'audio' ? 'wav' : 'png';
    const url = signedFileUrl(`${media.id}-result.${extension}`);
    media.status = SUCCESS_STATUS[media.kind];
    media.items = [
      finishedItem(media.kind, url, {
        thumbnail_url: media.kind === 'image' ? signedFileUrl(`${media.id}-thumbnail.jpg`) : null,
        file_id: `${media.id}-result`,
        duration_seconds: media.kind === 'audio' ? 3 : null,
      }),
    ];
    media.results = [url];
    return;
  }
  media.status = outcome;
  media.error = outcome === 'failed' ? 'The render engine failed.' : 'The result was flagged as unsafe.';
  media.items = [endedItem(media.kind, outcome)];
  refund(media);
}

/**
 * A video job's results: a creation job's one per preset × quantity under its SPEC §3 folder
 * (`batch/1/{motion type or camera path}{n}`), labelled; a video tool's one `result.mp4`.
 */
function videoItems(media: FakeMediaRecord): FakeMediaRecord['items'] {
  const presets = parsePosePreset(media.args.pose_preset);
  if (presets.length === 0) {
    return [
      finishedItem('video', signedFileUrl(`${media.id}-result.mp4`), {
        thumbnail_url: signedFileUrl(`${media.id}-thumbnail.jpg`),
        gif_url: signedFileUrl(`${media.id}-result.gif`),
        file_id: `${media.id}-result`,
        duration_seconds: 5,
      }),
    ];
  }
  const type = String(media.args.creation_type) as VideoCreationType;
  const kind: ResultLabelKind = type === 'parallax-motion' ? 'parallax' : type === 'try-on' ? 'tryOnVideo' : 'video';
  const videos = presets.flatMap((preset: PosePreset) =>
    batchFolders('', '1', preset).map((folder) => ({ preset, folder: folder.replace(/^\//, '') })),
  );
  return videos.map(({ preset, folder }, position) => ({
    ...finishedItem('video', `${media.base_url}/${folder}/video.mp4`),
    thumbnail_url: `${media.base_url}/${folder}/thumbnail/thumbnail.jpg`,
    gif_url: `${media.base_url}/${folder}/video.gif`,
    folder_path: folder,
    label: resultLabel({
      run: 1,
      index: position + 1,
      kind,
      args: { camera_path: preset.camera_path, option: media.option, aspect_ratio: stringField(media.args.aspect_ratio) },
    }),
    file_id: `${media.id}-${position + 1}`,
    duration_seconds: preset.motion_length,
  }));
}

const stringField = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function refund(media: FakeMediaRecord): void {
  if (media.refunded) return;
  media.refunded = true;
  fakeApi.credits += media.cost;
}

const formFields = (form: FormData): Record<string, string | string[]> => {
  const fields: Record<string, string | string[]> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key).map((value) => (typeof value === 'string' ? value : value.name));
    fields[key] = key === 'image_urls' || key === 'order_indices' ? values : (values[0] ?? '');
  }
  return fields;
};

type ModelOption = (typeof ASSET_TOOLS)[number];

/**
 * What the local server refuses of a video tool call (contract §1, lightly): the model must be
 * the call's (Edit Video), inputs by the model and effect, one of each `oneOf` group, an effect of
 * the model, and lip sync's text when no audio is given.
 */
function videoCallRefusal(
  spec: GenerationToolSpec,
  endpoint: string,
  option: ModelOption,
  fields: Record<string, string | string[]>,
): string | null {
  if (endpointFor(spec, option.value) !== endpoint) return `${option.value} is sent to ${endpointFor(spec, option.value)}, not ${endpoint}.`;
  const given = (field: string): boolean => Boolean(fields[field]);
  const effect = option.available_effects?.find((candidate) => candidate.value === fields.effect);
  if (spec.choices?.some((choice) => choice.options === 'effects') && !effect) {
    return `effect must be one of ${option.label}'s effects.`;
  }
  const groups = new Map<string, boolean>();
  for (const input of spec.images) {
    if (input.models && !input.models.includes(option.value)) continue;
    const required =
      input.required === 'always' ||
      (input.required === 'model' && option.end_frame === 1) ||
      (input.required === 'effect' && effect?.end_frame === 1);
    if (required && !given(input.field)) return `${input.label} is required (${input.field}).`;
    if (input.oneOf) groups.set(input.oneOf, (groups.get(input.oneOf) ?? false) || given(input.field));
  }
  for (const [group, any] of groups) if (!any) return `Send one of the ${group} inputs.`;
  if (spec.prompt === 'unlessAudio' && !given('audio_url') && !given('prompt')) return `${spec.promptLabel} is required (prompt).`;
  return null;
}

const generationHandlers = GENERATION_TOOLS.flatMap((spec) =>
  toolEndpoints(spec).map((endpoint) =>
    http.post(`${API}/${endpoint}`, async ({ request }) => {
      record(request);
      if (!isSignedIn(request)) return unauthorized();
      if (generationToolByEndpoint(endpoint) !== spec) return detail(404, 'Not found');
      const fields = formFields(await request.formData());
      const key = request.headers.get('Idempotency-Key');
      fakeMedia.submissions.push({ endpoint, fields, idempotencyKey: key });
      const replayed = key ? fakeMedia.idempotency.get(key) : undefined;
      if (replayed) return answer(fakeMedia.media.get(replayed));
      if ((spec.slug === 'image-to-image' || spec.slug === 'reimagine') && !fields.image_url) {
        return detail(400, MESSAGES.noUploadFile);
      }
      const option = ASSET_TOOLS.find(
        (candidate) => candidate.value === fields.option && candidate.available_tools.includes(spec.slug),
      );
      if (!option) return detail(400, `${String(fields.option)} is not a model of ${spec.title}.`);
      const refusal = spec.kind === 'video' ? videoCallRefusal(spec, endpoint, option, fields) : null;
      if (refusal) return detail(400, refusal);
      // Issue 21 item 7: a run of several pictures costs the model's credits for each.
      const pictures = Number(fields.num_images ?? 1);
      const cost = runPrice(option.required_credits, Number.isInteger(pictures) ? pictures : 1);
      if (cost > fakeApi.credits) {
        return detail(402, `Not enough credits: this costs ${cost} credits and you have ${fakeApi.credits}.`);
      }
      fakeApi.credits -= cost;
      const media = addMedia({
        kind: spec.kind,
        tool: spec.slug,
        option: option.value,
        cost,
        // The seed sent, or (a run of several, whose pictures show theirs) a fixed one of the fake's.
        ...(spec.kind === 'image' && (fields.seed || pictures > 1) ? { seed: fields.seed ? Number(fields.seed) : 1000 } : {}),
        args: fields,
        image_urls: Array.isArray(fields.image_urls) ? fields.image_urls : [],
      });
      if (key) fakeMedia.idempotency.set(key, media.id);
      return answer(media);
    }),
  ),
);

const CREATION_TYPES_SENT = Object.keys(VIDEO_CREATION_TOOLS) as VideoCreationType[];

/**
 * `POST media`: with `pose_preset` a video creation job (contract §1: cost = videoJobCost, 402
 * when short, Idempotency-Key), without it a plain record.
 */
const createMediaHandler = http.post(`${API}/media`, async ({ request }) => {
  record(request);
  if (!isSignedIn(request)) return unauthorized();
  const fields = formFields(await request.formData());
  const key = request.headers.get('Idempotency-Key');
  fakeMedia.submissions.push({ endpoint: 'media', fields, idempotencyKey: key });
  const replayed = key ? fakeMedia.idempotency.get(key) : undefined;
  if (replayed) return answer(fakeMedia.media.get(replayed));
  if (fields.pose_preset === undefined) {
    const media = addMedia({ status: 'success', progress: 100, args: fields });
    return answer(media);
  }
  const type = String(fields.creation_type) as VideoCreationType;
  if (!CREATION_TYPES_SENT.includes(type)) return detail(400, 'creation_type must be a video creation type.');
  const presets = parsePosePreset(fields.pose_preset);
  if (presets.length === 0) return detail(400, 'pose_preset must be a preset or a list of presets.');
  const optionValue = typeof fields.option === 'string' ? fields.option : '';
  const model = MOTION_MODELS.find((candidate) => candidate.value === optionValue);
  if (type !== 'parallax-motion' && !model) return detail(400, `${optionValue} is not a motion model.`);
  const cost = videoJobCost(type, model, presets.map((preset) => preset.quantity));
  if (cost > fakeApi.credits) {
    return detail(402, `Not enough credits: this costs ${cost} credits and you have ${fakeApi.credits}.`);
  }
  fakeApi.credits -= cost;
  const id = `m${fakeMedia.nextId++}`;
  const media = addMedia({
    id,
    kind: 'video',
    tool: VIDEO_CREATION_TOOLS[type],
    option: type === 'parallax-motion' ? PARALLAX_OPTION : optionValue,
    cost,
    base_url: `http://localhost/api/files/m/${id}/4102444800/${'cd'.repeat(32)}`,
    args: { ...fields, pose_preset: presets, prompt: presets[0]?.prompt || undefined },
    image_urls: Array.isArray(fields.image_urls) ? fields.image_urls : [],
  });
  if (key) fakeMedia.idempotency.set(key, media.id);
  return answer(media);
});

const uploadHandler = (kind: MediaKind) =>
  http.post(`${API}/${UPLOAD_ENDPOINTS[kind].endpoint}`, async ({ request }) => {
    record(request);
    if (!isSignedIn(request)) return unauthorized();
    const file = (await request.formData()).get(UPLOAD_ENDPOINTS[kind].field);
    if (!file || typeof file === 'string') return detail(400, MESSAGES.noUploadFile);
    // Names arrive as "blob" through jsdom's FormData; the counter keeps each upload's URL apart.
    const url = signedFileUrl(`upload-${fakeMedia.nextId}-${file.name}`);
    const media = addMedia({
      kind,
      tool: UPLOAD_ENDPOINTS[kind].tool,
      status: SUCCESS_STATUS[kind],
      progress: 100,
      args: { filename: file.name },
      items: [finishedItem(kind, url, { thumbnail_url: kind === 'image' ? url : null, file_id: `f-${file.name}` })],
    });
    media.finished_at = media.updated_at;
    return answer(media);
  });

/** One poll of a job as the fake server answers it (a live job moves on by one poll); null for an unknown id. */
function pollOnce(mediaId: string) {
  const media = fakeMedia.media.get(mediaId);
  if (!media) return null;
  if (LIVE(media.status)) {
    const count = (polls.get(media.id) ?? 0) + 1;
    polls.set(media.id, count);
    if (count >= fakeMedia.pollsToFinish) {
      finish(media, fakeMedia.outcome);
    } else {
      media.status = 'processing_source';
      media.progress = Math.round((count / fakeMedia.pollsToFinish) * 100);
      media.updated_at = tick();
    }
  }
  const { id, status, progress, items, updated_at } = media;
  // Issue 21 item 2: held, and a waiting job's place (as GET media last gave it; none once started).
  const queue_position = status === 'queue_source' ? (media.queue_position ?? null) : null;
  return { id, status, progress, items: items.map((item) => ({ status: item.status })), updated_at, held: media.held ?? false, queue_position };
}

export const mediaHandlers = [
  ...generationHandlers,
  createMediaHandler,
  uploadHandler('image'),
  uploadHandler('audio'),
  uploadHandler('video'),
  http.get(`${API}/media/:id/processing-status`, ({ request, params }) => {
    record(request);
    const status = pollOnce(String(params.id));
    return status ? answer(status) : detail(404, 'Media not found');
  }),
  // Kinora's batched poll (several jobs polled at the same moment); before media/:id, which it would match.
  http.get(`${API}/media/processing-status`, ({ request }) => {
    record(request);
    const ids = new URL(request.url).searchParams.get('ids')?.split(',') ?? [];
    return answer({ items: ids.flatMap((id) => pollOnce(id) ?? []) });
  }),
  http.get(`${API}/media/:id`, ({ request, params }) => {
    record(request);
    if (!isSignedIn(request)) return unauthorized();
    const media = fakeMedia.media.get(String(params.id));
    return media ? answer(media) : detail(404, 'Media not found');
  }),
  http.get(`${API}/media`, ({ request }) => {
    record(request);
    if (!isSignedIn(request)) return unauthorized();
    const url = new URL(request.url);
    const tool = url.searchParams.get('tool');
    // Issue 21: the jobs registry asks for the person's running jobs (status=live) on sign-in.
    const live = url.searchParams.get('status') === 'live';
    const limit = Number(url.searchParams.get('limit') ?? 20);
    // The newest `limit`, but sent oldest first on purpose: the app must order them itself.
    const items = [...fakeMedia.media.values()]
      .filter((media) => (!tool || media.tool === tool) && (!live || LIVE(media.status)))
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .slice(0, limit)
      .reverse();
    return answer({ items });
  }),
  http.put(`${API}/media/:id/cancel`, ({ request, params }) => {
    record(request);
    if (!isSignedIn(request)) return unauthorized();
    const media = fakeMedia.media.get(String(params.id));
    if (!media) return detail(404, 'Media not found');
    if (!LIVE(media.status)) return detail(409, 'This job has already ended.');
    media.status = 'cancelled';
    media.updated_at = tick();
    media.finished_at = media.updated_at;
    refund(media);
    return answer(media);
  }),
  // The image tools that offer trained models list them (GET finetune): none by default;
  // tests/msw/finetune.ts's handlers (server.use) answer with the person's models.
  http.get(`${API}/finetune`, ({ request }) => {
    record(request);
    if (!isSignedIn(request)) return unauthorized();
    return answer({ items: [] });
  }),
  http.post(`${API}/text/prompt`, async ({ request }) => {
    record(request);
    if (!isSignedIn(request)) return unauthorized();
    const fields = formFields(await request.formData());
    const option = typeof fields.option === 'string' && fields.option ? fields.option : 'InspireMe';
    const given = typeof fields.prompt === 'string' ? fields.prompt.trim() : '';
    if (option === 'Image2Prompt' && !fields.image_url) return detail(400, 'Image2Prompt needs an image_url or image_file');
    const prompt =
      fakeMedia.promptAnswers.get(option) ??
      (option === 'Image2Prompt'
        ? `A picture described from ${String(fields.image_url)}`
        : `${given || 'A lighthouse at dawn'}, in soft golden light`);
    return answer({ mode: option, prompt });
  }),
];
