import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FINETUNE_ID_FIELD } from '../../../src/config/finetune.ts';
import { QUEUE_TEXTS } from '../../../src/config/queue-texts.ts';
import type { Media } from '../../../src/services/schemas/media.ts';
import { appendLedgerEntry, creditBalance, isNegativeBalance } from '../db/credit-ledger.ts';
import { bindIdempotencyMedia } from '../db/idempotency.ts';
import { findMedia, findOwnMedia, isLive, QUEUED_STATUS, type MediaRow } from '../db/media.ts';
import { holdJob, lockWaitingJob, queuePositions, resumeJob, runJobNext, updateWaitingJob } from '../db/queue.ts';
import { PROMPT_MAX_LENGTH } from '../config.ts';
import { costFor } from '../jobs/charge.ts';
import { parseGenerationRequest } from './generation-request.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { runIdempotent, type HandlerAnswer } from './idempotent.ts';
import { mediaAnswer, mediaAnswers, type LinkMaker } from './media-answer.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { generationToolOf } from './media-rerun.ts';
import { DETAILS } from './messages.ts';
import { requestDigest, type MultipartBody } from './multipart-body.ts';
import { idParams } from './route-schemas.ts';
import type { AuthUser } from './user-auth.ts';

/** The args a generation request is parsed into (generation-request.ts): what an edit may change. */
const REQUEST_ARGS = ['option', 'prompt', 'aspect_ratio', 'voice', 'duration', 'order_indices', 'effect', 'enhance_mode', 'mode'] as const;

/** PATCH media/{id}: the fields of a waiting job that may be changed; any other is refused. */
const editBody = z.strictObject({
  prompt: z.string().max(PROMPT_MAX_LENGTH).optional(),
  option: z.string().min(1).max(100).optional(),
  aspect_ratio: z.string().min(1).max(20).optional(),
  voice: z.string().min(1).max(100).optional(),
  duration: z.union([z.number(), z.string().max(20)]).optional(),
});
type EditBody = z.output<typeof editBody>;

/** A stored arg as the multipart field it came from (numbers and lists as the form sends them). */
const asFieldValues = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  return [];
};

/**
 * The job's request as its generation call would have sent it, with the edit applied: checked
 * again by the call's own parser, so an edit is refused exactly where a new request would be.
 * The job's input files are named by their ids (they were checked when it was queued and cannot
 * be changed here): the parser counts them only.
 */
function editedRequest(row: MediaRow, edit: EditBody): MultipartBody {
  const fields: Record<string, string[]> = {};
  for (const name of REQUEST_ARGS) {
    const values = asFieldValues(row.args[name]);
    if (values.length > 0) fields[name] = values;
  }
  if (row.option && !fields.option) fields.option = [row.option];
  for (const [name, value] of Object.entries(edit)) if (value !== undefined) fields[name] = [String(value)];
  for (const input of row.inputs) (fields[input.field] ??= []).push(`kinora-file:${input.file_id}`);
  return { fields, files: [] };
}

/**
 * Hold, resume, run next and edit (issue 21 item 2, Kinora's additions to SPEC §7): the owner's
 * own jobs that have not started. 404 for anyone else's job (never 403), 409 with
 * QUEUE_TEXTS.details.alreadyStarted once a worker has it, DETAILS.jobAlreadyEnded after its end.
 *
 * PATCH media/{id} re-quotes the job as its call would be priced now (the model's credits; nothing
 * for the Developer group) and settles the difference in one transaction with the change: a debit
 * of the extra (402 when the balance is short: nothing changes) or a refund of the saving, each a
 * ledger row (the debit names the job by job_id, the refund in its reason). A job stays charged from its submit; a later cancel or failure
 * refunds what it costs after the edit. Paying edits take an Idempotency-Key like every paid call.
 */
export async function mediaQueueRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, engine, signer } = deps;
  const linksFor = (request: FastifyRequest): LinkMaker => ({ origin: requestOrigin(request), signer });

  /** The job's answer with its place in the queue (counted among the owner's waiting jobs). */
  async function queueAnswer(request: FastifyRequest, row: MediaRow): Promise<Media> {
    const [answer] = await mediaAnswers(db, [row], linksFor(request));
    if (!answer) throw new Error(`no answer for media ${row.id}`);
    const positions = await queuePositions(db, row.user_sub);
    // The places of the person's other waiting jobs may have changed too: their statuses are read afresh.
    for (const id of positions.keys()) engine.statuses.forget(id);
    return { ...answer, queue_position: positions.get(row.id) ?? null };
  }

  /** Why a change found no waiting job of the caller's: gone or not theirs (404), started (409), ended (409). */
  async function refusal(id: string, user: AuthUser): Promise<HttpError> {
    const row = await findOwnMedia(db, id, user.sub);
    if (!row) return new HttpError(404, DETAILS.notFound);
    return new HttpError(409, isLive(row.status) ? QUEUE_TEXTS.details.alreadyStarted : DETAILS.jobAlreadyEnded);
  }

  const changes = [
    { path: 'hold', change: holdJob },
    { path: 'resume', change: resumeJob },
    { path: 'run-next', change: runJobNext },
  ] as const;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const { path, change } of changes) {
    typed.post(`/media/:id/${path}`, { schema: { params: idParams } }, async (request): Promise<{ data: Media }> => {
      const user = await auth.requireUser(request);
      const row = await change(db, request.params.id, user.sub);
      if (!row) throw await refusal(request.params.id, user);
      // Its processing-status is read afresh (held, its place); a resumed job may start now.
      engine.statuses.forget(row.id);
      if (path !== 'hold') engine.notify();
      return ok(await queueAnswer(request, row));
    });
  }

  async function edit(request: FastifyRequest, user: AuthUser, current: MediaRow, body: EditBody, key: string | null): Promise<HandlerAnswer> {
    const tool = generationToolOf(current);
    if (!tool) throw new HttpError(400, QUEUE_TEXTS.details.notEditable);
    const parsed = parseGenerationRequest(tool, editedRequest(current, body), current.endpoint ?? tool.endpoint);
    // A trained model's style travels in args: it stays with the model it was trained for.
    const trained = typeof current.args[FINETUNE_ID_FIELD] === 'string' && current.args[FINETUNE_ID_FIELD] !== '';
    if (trained && parsed.model.value !== current.option) throw new HttpError(400, QUEUE_TEXTS.details.trainedModelKept);
    // What the parser does not produce (a trained model's style, the inputs' cuts) is kept as it was.
    const kept = Object.fromEntries(Object.entries(current.args).filter(([name]) => !(REQUEST_ARGS as readonly string[]).includes(name)));
    const args = { ...kept, ...parsed.args };
    const usedFields = new Set<string>(parsed.inputs.map((input) => input.field));
    const inputs = current.inputs.filter((input) => usedFields.has(input.field));
    const cost = costFor(user, parsed.model.required_credits);
    let difference = 0;
    try {
      const row = await db.transaction(async (tx) => {
        const waiting = await lockWaitingJob(tx, current.id, user.sub);
        if (!waiting) return null;
        difference = cost - waiting.cost;
        if (difference > 0) {
          await appendLedgerEntry(tx, {
            userSub: user.sub,
            amount: -difference,
            kind: 'debit',
            reason: `Edit: ${tool.title} · ${parsed.model.label}`,
            jobId: waiting.id,
          });
        } else if (difference < 0) {
          // Named in its reason, not by job_id: a job's one refund row (credit_ledger_one_refund_per_job)
          // stays the one its cancel or failure writes for what it costs after the edit.
          await appendLedgerEntry(tx, { userSub: user.sub, amount: -difference, kind: 'refund', reason: QUEUE_TEXTS.editRefundReason(waiting.id) });
        }
        const updated = await updateWaitingJob(tx, waiting.id, { option: parsed.model.value, args, inputs, cost });
        if (key) await bindIdempotencyMedia(tx, user.sub, key, waiting.id);
        return updated;
      });
      if (!row) throw await refusal(current.id, user);
      engine.statuses.forget(row.id);
      return { statusCode: 200, payload: ok(await queueAnswer(request, row)), mediaId: row.id };
    } catch (error) {
      if (!isNegativeBalance(error)) throw error;
      throw new HttpError(402, DETAILS.notEnoughCredits(difference, await creditBalance(db, user.sub)));
    }
  }

  typed.patch('/media/:id', { schema: { params: idParams } }, async (request, reply) => {
    const user = await auth.requireUser(request);
    const body = parseInput(editBody, request.body ?? {});
    // Checked before the key is claimed: these refusals never use up an Idempotency-Key.
    const current = await findOwnMedia(db, request.params.id, user.sub);
    if (!current) throw new HttpError(404, DETAILS.notFound);
    if (current.status !== QUEUED_STATUS) throw await refusal(current.id, user);
    const hash = requestDigest(`media/${current.id}/edit-queued`, {}, body);
    return runIdempotent(
      db,
      request,
      reply,
      user.sub,
      hash,
      (key) => edit(request, user, current, body, key),
      async (mediaId) => {
        const made = await findMedia(db, mediaId);
        return made ? ok(await mediaAnswer(db, made, linksFor(request))) : null;
      },
    );
  });
}
