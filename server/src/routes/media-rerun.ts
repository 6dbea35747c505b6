import { z } from 'zod';
import { SEED_MAX } from '../lib/seed.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FINETUNE_ID_FIELD } from '../../../src/config/finetune.ts';
import { GENERATION_TOOLS, toolEndpoints, type GenerationToolSpec } from '../../../src/config/generation-tools.ts';
import { requireOwnAssetId } from '../db/assets.ts';
import { findMediaFile } from '../db/files.ts';
import { findMedia, findOwnMedia, isLive, type MediaRow } from '../db/media.ts';
import { chargeGenerationJob } from './generation.ts';
import { chooseModel } from './generation-request.ts';
import { resolveFinetuneArg } from './finetune-input.ts';
import { HttpError, ok } from './http.ts';
import { runIdempotent, type HandlerAnswer } from './idempotent.ts';
import { resolvePictureLink } from './image-inputs.ts';
import { mediaAnswer, type LinkMaker } from './media-answer.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { DETAILS } from './messages.ts';
import { requestDigest } from './multipart-body.ts';
import { idParams } from './route-schemas.ts';
import type { AuthUser } from './user-auth.ts';

/** What POST media/{id}/rerun answers besides the generation call's own refusals. */
export const RERUN_DETAILS = {
  cannotRunAgain: 'This item cannot be run again.',
  inputGone: 'A file this job was made from is no longer available: open it in its tool (Remix) and choose the file again.',
} as const;

/**
 * The generation tool a job came through, or undefined when it was not a generation call (an
 * upload, a media record, a video creation, an album's clips or join, a story part, a training):
 * only a generation call's job is made again from its row alone.
 */
/** Vary (issue 21 item 7): the same job with another seed; without one, Re-run keeps the job's own. */
const rerunBody = z.object({ seed: z.number().int().min(0).max(SEED_MAX).optional() }).nullish();

export const generationToolOf = (row: Pick<MediaRow, 'tool' | 'endpoint'>): GenerationToolSpec | undefined =>
  row.endpoint === null ? undefined : GENERATION_TOOLS.find((tool) => tool.slug === row.tool && toolEndpoints(tool).includes(row.endpoint ?? ''));

/**
 * The job's input files as they may be used again now: each must still exist, and one that is not
 * the caller's must still be reachable through the shared link the job kept in image_urls (a
 * share ends when its link expires, for a re-run as for a new call).
 */
async function checkInputs(deps: MediaRouteDeps, user: AuthUser, row: MediaRow): Promise<void> {
  let shared: Set<string> | null = null;
  for (const input of row.inputs) {
    const file = await findMediaFile(deps.db, input.file_id);
    if (!file) throw new HttpError(400, RERUN_DETAILS.inputGone);
    if (file.user_sub === user.sub) continue;
    if (!shared) {
      shared = new Set<string>();
      for (const ref of row.image_urls) {
        if (!('url' in ref)) continue;
        const linked = await resolvePictureLink(deps, user, ref.url, 'image_urls', { picturesOnly: false, required: false });
        if (linked) shared.add(linked.id);
      }
    }
    if (!shared.has(file.id)) throw new HttpError(400, RERUN_DETAILS.inputGone);
  }
}

/** The job's asset when it still exists (an asset deleted since is left out, not refused). */
async function assetStillThere(deps: MediaRouteDeps, user: AuthUser, assetId: string | null): Promise<string | null> {
  if (assetId === null) return null;
  try {
    return await requireOwnAssetId(deps.db, user.sub, assetId);
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 400) return null;
    throw error;
  }
}

/**
 * POST media/{id}/rerun (issue 21 item 1, Kinora's addition to SPEC §7): the owner's ended job
 * made again as a new job — the same tool, call, model, args and input files — charged as its
 * generation call is now (generation.ts chargeGenerationJob: the model's credits, 402 when short,
 * nothing for the Developer group), under the paid calls' Idempotency-Key rules. Answers the new
 * job as the generation call does (async: queued). 404 for anyone else's, 409 while it runs, 400
 * for an item no generation call made.
 */
export async function mediaRerunRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, signer } = deps;
  const linksFor = (request: FastifyRequest): LinkMaker => ({ origin: requestOrigin(request), signer });

  async function rerun(
    request: FastifyRequest,
    user: AuthUser,
    row: MediaRow,
    tool: GenerationToolSpec,
    seed: number | null,
    key: string | null,
  ): Promise<HandlerAnswer> {
    const endpoint = row.endpoint ?? tool.endpoint;
    // The model as it is offered now: a model withdrawn since is refused as the call would refuse it.
    const model = chooseModel(tool, row.option ?? undefined, endpoint);
    const args = { ...row.args };
    const finetuneId = args[FINETUNE_ID_FIELD];
    if (typeof finetuneId === 'string' && finetuneId !== '') {
      // The trained model must still be the caller's and ready; its style is read afresh.
      const finetune = await resolveFinetuneArg(db, user, { fields: { [FINETUNE_ID_FIELD]: [finetuneId] }, files: [] }, model);
      if (finetune) Object.assign(args, finetune);
    }
    await checkInputs(deps, user, row);
    const assetId = await assetStillThere(deps, user, row.asset_id);
    const created = await chargeGenerationJob(
      deps,
      user,
      // Re-run keeps the seed (the same picture again, from the same model); Vary sends a new one.
      { tool, endpoint, model, args, imageUrls: [...row.image_urls], inputs: [...row.inputs], assetId, seed: seed ?? row.seed },
      key,
    );
    return { statusCode: 200, payload: ok(await mediaAnswer(db, created, linksFor(request))), mediaId: created.id };
  }

  app.withTypeProvider<ZodTypeProvider>().post('/media/:id/rerun', { schema: { params: idParams, body: rerunBody } }, async (request, reply) => {
    const user = await auth.requireUser(request);
    // Checked before the key is claimed: these refusals never use up an Idempotency-Key.
    const row = await findOwnMedia(db, request.params.id, user.sub);
    if (!row) throw new HttpError(404, DETAILS.notFound);
    if (isLive(row.status)) throw new HttpError(409, DETAILS.jobStillRunning);
    const tool = generationToolOf(row);
    if (!tool) throw new HttpError(400, RERUN_DETAILS.cannotRunAgain);
    // The call is named by its path alone: the same key for another job's re-run is a 422.
    const seed = request.body?.seed ?? null;
    const hash = requestDigest(`media/${row.id}/rerun`, seed === null ? {} : { seed: String(seed) }, null);
    return runIdempotent(
      db,
      request,
      reply,
      user.sub,
      hash,
      (key) => rerun(request, user, row, tool, seed, key),
      async (mediaId) => {
        const made = await findMedia(db, mediaId);
        return made ? ok(await mediaAnswer(db, made, linksFor(request))) : null;
      },
    );
  });
}
