import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { activateTake, TAKE_PARTS, takeSlot, takesOf, undoTakeOf, type TakePart } from '../../../src/lib/story-takes.ts';
import type { Story, StoryAsset } from '../../../src/services/schemas/story.ts';
import { isLive } from '../db/media.ts';
import { lockOwnStory, storyMediaInfo, updateStory } from '../db/stories.ts';
import { HttpError, ok, parseInput } from './http.ts';
import { requestOrigin, type MediaRouteDeps } from './media-deps.ts';
import { storyAnswer } from './story-answer.ts';
import { checkRevision, checkStoryboard, followNarration } from './story-input.ts';

/**
 * Takes of a story's parts (Kinora's, issue 21 item 4): every regeneration of an element picture,
 * a scene picture or a scene video keeps the takes before it (story-plan places the new one as
 * active, src/lib/story-takes.ts). These two free calls choose among them:
 *
 * - `POST story/{id}/{elements|scenes|videos}/{partId}/takes/{mediaId}/select` makes one take active;
 * - `POST story/{id}/{elements|scenes|videos}/{partId}/undo` goes back to the take that was active
 *   before the last regeneration (the newer one stays a take).
 *
 * Both take an optional JSON body `{ storyboard, revision }`: the person's draft, saved first as
 * PUT story/{id} saves it (refused with 412 when the board changed elsewhere since), so edits not
 * yet saved are never lost. Whatever was made from the part goes stale or ready again by itself:
 * a scene's video records the picture it moved, so picking another picture makes it stale.
 */

const takeBodySchema = z
  .object({
    storyboard: z.unknown().optional(),
    /** The storyboard's revision the sent one was edited from (Story.revision). */
    revision: z.string().max(64).optional(),
  })
  .strict();

const takeParams = z.object({
  id: z.string().min(1).max(64),
  partId: z.string().min(1).max(64),
  mediaId: z.string().min(1).max(64).optional(),
});

/** How each part is named in an answer's words. */
const PART_WORDS: Readonly<Record<TakePart, { what: string; thing: string }>> = {
  elements: { what: 'element', thing: 'picture' },
  scenes: { what: 'scene', thing: 'picture' },
  videos: { what: 'scene', thing: 'video' },
};

const NOT_FOUND = 'Failed to find a Story with this id';

export async function storyTakeRoutes(app: FastifyInstance, deps: MediaRouteDeps): Promise<void> {
  const { db, auth, signer } = deps;

  /**
   * Makes a take active on the locked story: `choose` names it from the part's slot (or refuses).
   * The part must not be being made (its running job would land on a take the person left), and
   * the take must have its result (a failed or cancelled take is listed, never made active).
   */
  async function chooseTake(request: FastifyRequest, part: TakePart, choose: (slot: NonNullable<ReturnType<typeof takeSlot>>) => StoryAsset): Promise<{ data: Story }> {
    const user = await auth.requireUser(request);
    const params = parseInput(takeParams, request.params, 'The path');
    const body = parseInput(takeBodySchema, request.body ?? {});
    const words = PART_WORDS[part];
    const row = await db.transaction(async (tx) => {
      const fresh = await lockOwnStory(tx, params.id, user.sub);
      if (!fresh) throw new HttpError(404, NOT_FOUND);
      let board = fresh.storyboard;
      if (body.storyboard !== undefined) {
        checkRevision(fresh, body.revision);
        board = followNarration(fresh.storyboard, (await checkStoryboard(tx, fresh.id, body.storyboard)).board);
      }
      const slot = takeSlot(board, part, params.partId);
      if (!slot) throw new HttpError(404, `This storyboard has no ${words.what} "${params.partId}".`);
      const take = choose(slot);
      const info = await storyMediaInfo(tx, [take.media_id, ...(slot.active ? [slot.active.media_id] : [])]);
      if (slot.active && slot.active.media_id !== take.media_id && isLive(info.get(slot.active.media_id)?.status ?? '')) {
        throw new HttpError(409, `This ${words.thing} is being made: wait for it to finish, or cancel it first.`);
      }
      const status = info.get(take.media_id)?.status ?? '';
      if (!status.startsWith('success')) {
        throw new HttpError(409, isLive(status) ? `That take is still being made.` : `That take has no ${words.thing}: it was not made.`);
      }
      const updated = await updateStory(tx, fresh.id, user.sub, { storyboard: activateTake(board, part, params.partId, take) });
      if (!updated) throw new HttpError(404, NOT_FOUND);
      return updated;
    });
    return ok(await storyAnswer(db, row, { origin: requestOrigin(request), signer }));
  }

  for (const part of TAKE_PARTS) {
    app.post(`/story/:id/${part}/:partId/takes/:mediaId/select`, async (request) =>
      chooseTake(request, part, (slot) => {
        const mediaId = (request.params as { mediaId: string }).mediaId;
        const take = takesOf(slot).find((item) => item.media_id === mediaId);
        if (!take) throw new HttpError(404, `Media ${mediaId} is not a take of this ${PART_WORDS[part].what}'s ${PART_WORDS[part].thing}.`);
        return take;
      }),
    );
    app.post(`/story/:id/${part}/:partId/undo`, async (request) =>
      chooseTake(request, part, (slot) => {
        const take = undoTakeOf(slot);
        if (!take) throw new HttpError(409, `Nothing to undo: this ${PART_WORDS[part].thing} was not made again since it was chosen.`);
        return take;
      }),
    );
  }
}
