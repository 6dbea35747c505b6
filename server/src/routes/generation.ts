import { defaultSeed, imagesOfArgs } from '../jobs/pipelines.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ModelOption } from '../../../src/config/asset-tools.ts';
import { FINETUNE_KIND_LIST } from '../../../src/config/finetune.ts';
import { GENERATION_TOOLS, toolEndpoints, type GenerationToolSpec } from '../../../src/config/generation-tools.ts';
import { runPrice } from '../../../src/config/image-model-capabilities.ts';
import { requireOwnAssetId } from '../db/assets.ts';
import { touchIdempotencyKey } from '../db/idempotency.ts';
import { findMedia, newPublicId, type MediaRow, type StoredImageRef, type StoredInput } from '../db/media.ts';
import { chargeJobs, theJob } from '../jobs/charge.ts';
import { HttpError, ok } from './http.ts';
import { inputCut, type CutInput } from './input-cut.ts';
import { runIdempotent, type HandlerAnswer } from './idempotent.ts';
import { resolveFinetuneArg } from './finetune-input.ts';
import { resolveMediaLink } from './image-inputs.ts';
import { mediaAnswer } from './media-answer.ts';
import { requestOrigin, type MediaRouteDeps, type SyncWaitOptions } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import { readMultipart, requestDigest, type MultipartBody } from './multipart-body.ts';
import { parseGenerationRequest } from './generation-request.ts';
import { paidCallQuery, type PaidCallRequest } from './route-schemas.ts';
import type { AuthUser } from './user-auth.ts';

export const DEFAULT_SYNC_WAIT: SyncWaitOptions = { limitMs: 5 * 60 * 1000, keyTouchMs: 60 * 1000, perUser: 4 };

/** The models a trained model is used through on this tool's page (FluxFinetuned on text-to-image, …). */
const takesFinetune = (tool: GenerationToolSpec, model: string): boolean =>
  FINETUNE_KIND_LIST.some((kind) => kind.baseModel === model && (kind.tools as readonly string[]).includes(tool.slug));

/** A generation job once its request has been checked: a generation call's, or a re-run's (media-rerun.ts). */
export interface GenerationJobOrder {
  tool: GenerationToolSpec;
  endpoint: string;
  model: ModelOption;
  args: Record<string, unknown>;
  imageUrls: StoredImageRef[];
  inputs: StoredInput[];
  assetId: string | null;
  /** The seed the person chose; null: the request's own (defaultSeed), so the same request is the same picture. */
  seed: number | null;
}

/**
 * The one charge → insert job → 402 path of every generation job: the model's credits (times the
 * pictures it makes, issue 21 item 7) debited and
 * the job queued in one transaction (chargeJobs: 402 when the balance is short, nothing written),
 * the Idempotency-Key bound in the same commit, then the workers woken.
 */
export async function chargeGenerationJob(
  deps: Pick<MediaRouteDeps, 'db' | 'engine'>,
  user: AuthUser,
  order: GenerationJobOrder,
  key: string | null,
): Promise<MediaRow> {
  const images = imagesOfArgs(order.args);
  const row = await chargeJobs(deps.db, user, {
    jobs: [
      {
        media: {
          id: newPublicId(),
          kind: order.tool.kind,
          tool: order.tool.slug,
          endpoint: order.endpoint,
          option: order.model.value,
          args: order.args,
          imageUrls: order.imageUrls,
          inputs: order.inputs,
          // One item per picture the job makes: SPEC §3's results of one run, labelled 1.1, 1.2, …
          items: Array.from({ length: images }, () => ({ status: 'new' as const })),
          assetId: order.assetId,
          seed: order.seed ?? defaultSeed({ tool: order.tool.slug, option: order.model.value, args: order.args, inputs: order.inputs }),
        },
        price: runPrice(order.model.required_credits, images),
        reason: `${order.tool.title} · ${order.model.label}${images > 1 ? ` · ${images} images` : ''}`,
      },
    ],
    idempotencyKey: key,
    finish: theJob,
  });
  deps.engine.notify();
  return row;
}

/**
 * An AbortSignal that fires when the caller goes away before its answer was sent. The reply's
 * 'close' is the one to watch: the request side reports "destroyed" as soon as a multipart body
 * has been read, long before the caller leaves.
 */
function callerLeft(reply: FastifyReply): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onClose = (): void => {
    if (!reply.raw.writableEnded) controller.abort();
  };
  reply.raw.on('close', onClose);
  return { signal: controller.signal, dispose: () => reply.raw.off('close', onClose) };
}

/**
 * The generation calls of SPEC §7 (`image/*`, `audio/*`, `video/*`): validate, then debit the
 * model's cost and queue the job in one transaction (the ledger refuses a negative balance: 402),
 * and answer the job at once (async_mode true) or when it ended (false). Edit Video registers one
 * call per operation; the job keeps the call it came through.
 */
export async function generationRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, engine, signer } = deps;
  const sync = { ...DEFAULT_SYNC_WAIT, ...deps.syncWait };
  /** async_mode=false requests waiting, per user (this server's; each one holds a connection). */
  const waiting = new Map<string, number>();

  /** Waits for the job to end (or the limit, a stopping server, a caller who left), keeping the key fresh. */
  async function waitForJob(id: string, user: AuthUser, key: string | null, reply: FastifyReply): Promise<void> {
    const deadline = Date.now() + sync.limitMs;
    const left = callerLeft(reply);
    try {
      let ended = false;
      while (!ended && engine.running && !left.signal.aborted && Date.now() < deadline) {
        ended = await engine.waitForEnd(id, Math.min(sync.keyTouchMs, deadline - Date.now()), left.signal);
        if (!ended && key) await touchIdempotencyKey(db, user.sub, key);
      }
    } finally {
      left.dispose();
    }
  }

  async function createJob(
    tool: GenerationToolSpec,
    endpoint: string,
    request: PaidCallRequest,
    reply: FastifyReply,
    user: AuthUser,
    body: MultipartBody,
    key: string | null,
  ): Promise<HandlerAnswer> {
    const parsed = parseGenerationRequest(tool, body, endpoint);
    // Checked before anything is charged (a 400 for an asset that is not the caller's).
    const assetId = await requireOwnAssetId(db, user.sub, request.query.asset_id);
    const inputs: StoredInput[] = [];
    const imageUrls: StoredImageRef[] = [];
    const cutInputs: CutInput[] = [];
    for (const input of parsed.inputs) {
      const file = await resolveMediaLink(deps, user, input.link, input.field, { kind: input.media, required: true });
      if (!file) continue;
      inputs.push({ field: input.field, file_id: file.id });
      if (input.media !== 'image') {
        const cut = await inputCut(deps, file, input.field);
        if (cut) cutInputs.push(cut);
      }
      // image_urls lists the pictures a job was made from; its videos and sounds are in inputs only.
      if (input.media !== 'image') continue;
      // Another user's picture (shared with a signed link) is kept as that link: answers never
      // sign a file its owner does not own, so the share ends when the link expires.
      imageUrls.push(file.user_sub === user.sub ? { file_id: file.id } : { url: input.link });
    }
    // Issue 17: the job says which inputs it uses only the first 30 s of (input-cut.ts).
    if (cutInputs.length > 0) parsed.args.cut_inputs = cutInputs;
    if (takesFinetune(tool, parsed.model.value)) {
      const finetune = await resolveFinetuneArg(db, user, body, parsed.model);
      // The style travels in args so the render applies it; the public view's whitelist hides it.
      if (finetune) Object.assign(parsed.args, finetune);
    }
    let row = await chargeGenerationJob(
      deps,
      user,
      { tool, endpoint, model: parsed.model, args: parsed.args, imageUrls, inputs, assetId, seed: parsed.seed },
      key,
    );
    if (!parsed.asyncMode) {
      await waitForJob(row.id, user, key, reply);
      const latest = await findMedia(db, row.id);
      // Deleted while we waited: there is no job to answer with any more.
      if (!latest) throw new HttpError(404, DETAILS.notFound);
      row = latest;
    }
    return { statusCode: 200, payload: ok(await mediaAnswer(db, row, { origin: requestOrigin(request), signer })), mediaId: row.id };
  }

  /** Reserves one of the user's async_mode=false slots; the release runs when the request is done. */
  function reserveSyncWait(user: AuthUser, body: MultipartBody): (() => void) | null {
    const asyncMode = body.fields.async_mode?.[0];
    if (asyncMode !== 'false' && asyncMode !== '0') return null;
    const count = waiting.get(user.sub) ?? 0;
    if (count >= sync.perUser) throw new HttpError(429, DETAILS.tooManySyncWaits);
    waiting.set(user.sub, count + 1);
    return () => {
      const left = (waiting.get(user.sub) ?? 1) - 1;
      if (left > 0) waiting.set(user.sub, left);
      else waiting.delete(user.sub);
    };
  }

  const paid = app.withTypeProvider<ZodTypeProvider>();
  const calls = GENERATION_TOOLS.flatMap((tool) => toolEndpoints(tool).map((endpoint) => ({ tool, endpoint })));
  for (const { tool, endpoint } of calls) {
    paid.post(`/${endpoint}`, { schema: { querystring: paidCallQuery } }, async (request, reply) => {
      const user = await auth.requireUser(request);
      const body = await readMultipart(request);
      const hash = requestDigest(endpoint, request.query, body);
      const release = reserveSyncWait(user, body);
      try {
        return await runIdempotent(
          db,
          request,
          reply,
          user.sub,
          hash,
          (key) => createJob(tool, endpoint, request, reply, user, body, key),
          async (mediaId) => {
            const row = await findMedia(db, mediaId);
            return row ? ok(await mediaAnswer(db, row, { origin: requestOrigin(request), signer })) : null;
          },
        );
      } finally {
        release?.();
      }
    });
  }
}
