import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  FINETUNE_KIND_LIST,
  FINETUNE_KINDS,
  FINETUNE_NAME,
  FINETUNE_TOOL,
  FINETUNE_TRIGGER_WORD_MAX,
  isFinetuneKind,
  type FinetuneKindInfo,
} from '../../../src/config/finetune.ts';
import { MODEL_COSTS } from '../../../src/config/model-costs.ts';
import type { Finetune } from '../../../src/services/schemas/finetune.ts';
import type { Media } from '../../../src/services/schemas/media.ts';
import { PROMPT_MAX_LENGTH } from '../config.ts';
import { requireOwnAssetId } from '../db/assets.ts';
import { insertFinetune, listOwnFinetunes, finetuneStatus, type FinetuneWithJob } from '../db/finetunes.ts';
import { findMedia, newPublicId, type StoredImageRef, type StoredInput } from '../db/media.ts';
import { chargeJobs, theJob } from '../jobs/charge.ts';
import { HttpError, ok } from './http.ts';
import { runIdempotent, type HandlerAnswer } from './idempotent.ts';
import { resolvePictureLink } from './image-inputs.ts';
import { mediaAnswer, type LinkMaker } from './media-answer.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import { readMultipart, requestDigest, single, type MultipartBody } from './multipart-body.ts';
import { paidCallQuery, type PaidCallRequest } from './route-schemas.ts';
import type { AuthUser } from './user-auth.ts';

/** The endpoint a training job records (its media row's `endpoint`). */
const FINETUNE_ENDPOINT = 'finetune';

const bad = (detail: string): HttpError => new HttpError(400, detail);

/** What POST finetune asks for, checked against the kind's rules (SPEC §5 image counts). */
interface FinetuneRequest {
  kind: FinetuneKindInfo;
  name: string;
  triggerWord: string;
  prompt: string;
  pictures: string[];
}

/** How many pictures the kind takes, as a person reads it (also the 400's wording). */
export function pictureCountRule(kind: FinetuneKindInfo): string {
  if (kind.pairs) {
    return `${kind.label} takes ${kind.pairs.min} to ${kind.pairs.max} input/output pairs: an even number of pictures, input then output.`;
  }
  const images = kind.images ?? { min: 1, max: 1 };
  return `${kind.label} takes ${images.min} to ${images.max} pictures.`;
}

function countFits(kind: FinetuneKindInfo, count: number): boolean {
  if (kind.pairs) return count % 2 === 0 && count / 2 >= kind.pairs.min && count / 2 <= kind.pairs.max;
  return kind.images !== undefined && count >= kind.images.min && count <= kind.images.max;
}

function parseFinetuneRequest(body: MultipartBody): FinetuneRequest {
  const option = single(body, 'option')?.trim() ?? '';
  if (!isFinetuneKind(option)) throw bad(`option must be one of ${FINETUNE_KIND_LIST.map((kind) => kind.value).join(', ')}.`);
  const kind = FINETUNE_KINDS[option];
  const name = single(body, 'name')?.trim() ?? '';
  if (name.length < FINETUNE_NAME.min || name.length > FINETUNE_NAME.max) {
    throw bad(`name must be ${FINETUNE_NAME.min} to ${FINETUNE_NAME.max} characters.`);
  }
  const triggerWord = single(body, 'trigger_word')?.trim() ?? '';
  if (triggerWord.length > FINETUNE_TRIGGER_WORD_MAX) throw bad(`trigger_word can be at most ${FINETUNE_TRIGGER_WORD_MAX} characters.`);
  const prompt = single(body, 'prompt')?.trim() ?? '';
  if (prompt.length > PROMPT_MAX_LENGTH) throw bad(DETAILS.fieldTooLong('prompt', PROMPT_MAX_LENGTH));
  if (kind.promptRequired && prompt === '') throw bad(`${kind.label} needs a prompt that says what the pairs teach (prompt).`);
  const pictures = (body.fields.image_urls ?? []).map((link) => link.trim()).filter((link) => link !== '');
  if (!countFits(kind, pictures.length)) throw bad(`${pictureCountRule(kind)} You sent ${pictures.length}.`);
  return { kind, name, triggerWord, prompt, pictures };
}

/** A trained model as GET finetune answers it; the preview is the training job's result, signed now. */
function finetuneAnswer(row: FinetuneWithJob, links: LinkMaker): Finetune {
  const previewFile = row.media_items[0]?.file_id ?? null;
  return {
    id: row.id,
    name: row.name,
    option: row.option,
    base_model: row.base_model,
    trigger_word: row.trigger_word,
    status: finetuneStatus(row.media_status),
    media_id: row.media_id,
    preview_url: previewFile ? links.signer.sign(links.origin, previewFile).url : null,
    image_count: row.image_count,
    created_at: row.created_at.toISOString(),
  };
}

/**
 * SPEC §7 POST finetune (a training job: debited, queued, Idempotency-Key like the generation
 * calls) and Kinora's GET finetune (the caller's trained models with their training state).
 */
export async function finetuneRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, engine, signer } = deps;
  const linksFor = (request: FastifyRequest): LinkMaker => ({ origin: requestOrigin(request), signer });

  async function startTraining(
    request: PaidCallRequest,
    user: AuthUser,
    body: MultipartBody,
    key: string | null,
  ): Promise<HandlerAnswer> {
    const parsed = parseFinetuneRequest(body);
    // Checked before anything is charged (a 400 for an asset that is not the caller's).
    const assetId = await requireOwnAssetId(db, user.sub, request.query.asset_id);
    const inputs: StoredInput[] = [];
    const imageUrls: StoredImageRef[] = [];
    for (const link of parsed.pictures) {
      const file = await resolvePictureLink(deps, user, link, 'image_urls', { picturesOnly: true, required: true });
      if (!file) continue;
      inputs.push({ field: 'image_urls', file_id: file.id });
      // Someone else's picture shared with a signed link stays that link (see generation.ts).
      imageUrls.push(file.user_sub === user.sub ? { file_id: file.id } : { url: link });
    }
    const price = MODEL_COSTS[parsed.kind.value];
    const mediaId = newPublicId();
    // The job names its model, so the web app can follow a training from the jobs panel to the list.
    const finetuneId = newPublicId();
    const row = await chargeJobs(db, user, {
      jobs: [
        {
          media: {
            id: mediaId,
            kind: 'image',
            tool: FINETUNE_TOOL,
            endpoint: FINETUNE_ENDPOINT,
            option: parsed.kind.value,
            args: {
              option: parsed.kind.value,
              name: parsed.name,
              trigger_word: parsed.triggerWord,
              prompt: parsed.prompt,
              finetune_id: finetuneId,
            },
            imageUrls,
            inputs,
            items: [{ status: 'new' }],
            assetId,
          },
          price,
          reason: `LoRA Finetune · ${parsed.kind.label}`,
        },
      ],
      idempotencyKey: key,
      finish: async (tx, rows) => {
        await insertFinetune(tx, {
          id: finetuneId,
          userSub: user.sub,
          mediaId,
          name: parsed.name,
          option: parsed.kind.value,
          baseModel: parsed.kind.baseModel,
          triggerWord: parsed.triggerWord,
          imageCount: inputs.length,
        });
        return theJob(tx, rows);
      },
    });
    engine.notify();
    return { statusCode: 200, payload: ok(await mediaAnswer(db, row, linksFor(request))), mediaId: row.id };
  }

  app.withTypeProvider<ZodTypeProvider>().post('/finetune', { schema: { querystring: paidCallQuery } }, async (request, reply) => {
    const user = await auth.requireUser(request);
    const body = await readMultipart(request);
    const hash = requestDigest(FINETUNE_ENDPOINT, request.query, body);
    return runIdempotent(
      db,
      request,
      reply,
      user.sub,
      hash,
      (key) => startTraining(request, user, body, key),
      async (mediaId): Promise<{ data: Media } | null> => {
        const row = await findMedia(db, mediaId);
        return row ? ok(await mediaAnswer(db, row, linksFor(request))) : null;
      },
    );
  });

  app.get('/finetune', async (request): Promise<{ data: { items: Finetune[] } }> => {
    const user = await auth.requireUser(request);
    const rows = await listOwnFinetunes(db, user.sub);
    return ok({ items: rows.map((row) => finetuneAnswer(row, linksFor(request))) });
  });
}
