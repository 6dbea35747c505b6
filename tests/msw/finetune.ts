import { http } from 'msw';
import { FINETUNE_KINDS, isFinetuneKind } from '@/config/finetune';
import { MESSAGES } from '@/config/messages';
import { MODEL_COSTS } from '@/config/model-costs';
import { classifyStatus } from '@/lib/job-status';
import type { Finetune } from '@/services/schemas/finetune';
import { fakeApi } from './handlers';
import { answer, API, detail, finishedItem, isSignedIn } from './data';
import { addMedia, fakeMedia } from './media';

/**
 * A small stand-in for the fine-tune calls of issue 5 (SPEC §7 POST finetune, Kinora's GET
 * finetune): a training is a job of the fake media store (tests/msw/media.ts: it runs for
 * `fakeMedia.pollsToFinish` polls and ends as `fakeMedia.outcome` says), and a model's status and
 * preview follow its job: training while the job runs, ready with the job's picture on success,
 * failed otherwise. Not among the default handlers: tests add them with
 * `server.use(...finetuneHandlers)` and call `resetFakeFinetunes()` after each test.
 */

interface FinetuneRow {
  id: string;
  name: string;
  option: string;
  base_model: string;
  trigger_word: string;
  media_id: string;
  image_count: number;
  created_at: string;
}

interface FakeFinetuneState {
  rows: FinetuneRow[];
  /** Fields of each POST finetune, in order. */
  submissions: { fields: Record<string, string | string[]>; idempotencyKey: string | null }[];
  /** How GET finetune answers: 'ok', or a failure with this status and detail. */
  listFailure: { status: number; detail: string } | null;
  /** GET finetune calls answered so far. */
  listCalls: number;
  nextId: number;
}

const freshState = (): FakeFinetuneState => ({ rows: [], submissions: [], listFailure: null, listCalls: 0, nextId: 1 });

export const fakeFinetunes: FakeFinetuneState = freshState();

export function resetFakeFinetunes(): void {
  Object.assign(fakeFinetunes, freshState());
}


const formFields = (form: FormData): Record<string, string | string[]> => {
  const fields: Record<string, string | string[]> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key).map((value) => (typeof value === 'string' ? value : value.name));
    fields[key] = key === 'image_urls' ? values : (values[0] ?? '');
  }
  return fields;
};

const statusOf = (mediaStatus: string | undefined): Finetune['status'] => {
  if (mediaStatus === undefined) return 'failed';
  const status = classifyStatus(mediaStatus);
  return status === 'processing' ? 'training' : status === 'success' ? 'ready' : 'failed';
};

/** The answer of GET finetune for one row: status and preview from its training job. */
export function finetuneAnswer(row: FinetuneRow): Finetune {
  const media = fakeMedia.media.get(row.media_id);
  const status = statusOf(media?.status);
  return {
    ...row,
    status,
    preview_url: status === 'ready' ? (media?.items[0]?.url ?? null) : null,
  };
}

/**
 * A trained model with its training job; `status` says where the job is (training: queued,
 * ready: finished with a preview, failed).
 */
export function addFinetune(
  overrides: Partial<FinetuneRow> & { status?: Finetune['status'] } = {},
): FinetuneRow {
  const { status = 'ready', ...rowOverrides } = overrides;
  const option = rowOverrides.option ?? 'FluxFinetune';
  const id = rowOverrides.id ?? `ft${fakeFinetunes.nextId++}`;
  const previewUrl = `http://localhost/api/files/${id}-preview.png?expires=4102444800&signature=${'cd'.repeat(32)}`;
  const media = addMedia({
    tool: 'finetune',
    kind: 'image',
    option,
    cost: 240,
    status: status === 'training' ? 'processing_source' : status === 'ready' ? 'success' : 'failed',
    progress: status === 'training' ? 40 : 100,
    items:
      status === 'ready'
        ? [finishedItem('image', previewUrl, { thumbnail_url: previewUrl, file_id: `${id}-preview` })]
        : [],
  });
  const row: FinetuneRow = {
    id,
    name: `Model ${id}`,
    option,
    base_model: isFinetuneKind(option) ? FINETUNE_KINDS[option].baseModel : 'FluxFinetuned',
    trigger_word: '',
    media_id: media.id,
    image_count: 5,
    created_at: media.created_at,
    ...rowOverrides,
  };
  fakeFinetunes.rows.push(row);
  return row;
}

export const finetuneHandlers = [
  http.get(`${API}/finetune`, ({ request }) => {
    fakeMedia.calls.push('GET finetune');
    if (!isSignedIn(request)) return detail(401, MESSAGES.notAuthenticated);
    fakeFinetunes.listCalls += 1;
    const failure = fakeFinetunes.listFailure;
    if (failure) return detail(failure.status, failure.detail);
    // Oldest first on purpose: the app orders the list itself.
    return answer({ items: fakeFinetunes.rows.map(finetuneAnswer) });
  }),
  http.post(`${API}/finetune`, async ({ request }) => {
    fakeMedia.calls.push('POST finetune');
    if (!isSignedIn(request)) return detail(401, MESSAGES.notAuthenticated);
    const fields = formFields(await request.formData());
    const key = request.headers.get('Idempotency-Key');
    fakeFinetunes.submissions.push({ fields, idempotencyKey: key });
    const replayed = key ? fakeMedia.idempotency.get(key) : undefined;
    if (replayed) return answer(fakeMedia.media.get(replayed));
    const option = typeof fields.option === 'string' ? fields.option : '';
    if (!isFinetuneKind(option)) return detail(400, `${option} is not a fine-tune kind.`);
    const cost = MODEL_COSTS[option];
    if (cost > fakeApi.credits) {
      return detail(402, `Not enough credits: this costs ${cost} credits and you have ${fakeApi.credits}.`);
    }
    fakeApi.credits -= cost;
    const imageUrls = Array.isArray(fields.image_urls) ? fields.image_urls : [];
    const media = addMedia({ kind: 'image', tool: 'finetune', option, cost, args: fields, image_urls: imageUrls });
    if (key) fakeMedia.idempotency.set(key, media.id);
    fakeFinetunes.rows.push({
      id: `ft${fakeFinetunes.nextId++}`,
      name: typeof fields.name === 'string' ? fields.name : '',
      option,
      base_model: FINETUNE_KINDS[option].baseModel,
      trigger_word: typeof fields.trigger_word === 'string' ? fields.trigger_word : '',
      media_id: media.id,
      image_count: imageUrls.length,
      created_at: media.created_at,
    });
    return answer(media);
  }),
];
