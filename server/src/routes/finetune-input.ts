import type { ModelOption } from '../../../src/config/asset-tools.ts';
import { FINETUNE_ID_FIELD } from '../../../src/config/finetune.ts';
import type { Queryable } from '../db/database.ts';
import { findOwnFinetune, finetuneStatus } from '../db/finetunes.ts';
import { HttpError } from './http.ts';
import { single, type MultipartBody } from './multipart-body.ts';
import type { AuthUser } from './user-auth.ts';

/** What an image job keeps of the trained model it was asked to use. */
export interface FinetuneArg {
  finetune_id: string;
  /** The learned style the render engine applies (Kinora's; see render/finetune-style.ts). */
  finetune_style: Record<string, unknown>;
}

/** One answer for every refusal: an unknown id and someone else's must not be told apart. */
export const FINETUNE_NOT_USABLE = 'This trained model is not ready or not yours.';

/**
 * The `finetune_id` field of an image call (text-to-image with FluxFinetuned, image-to-image with
 * FluxKontextFinetuned): null when none was sent; throws HttpError 400 when the id is not the
 * caller's ready model of that base model.
 */
export async function resolveFinetuneArg(
  db: Queryable,
  user: AuthUser,
  body: MultipartBody,
  model: ModelOption,
): Promise<FinetuneArg | null> {
  const id = single(body, FINETUNE_ID_FIELD)?.trim();
  if (!id) return null;
  const finetune = await findOwnFinetune(db, id, user.sub);
  // A Flux model trained for text-to-image cannot drive Kontext's image-to-image, and the reverse:
  // the base model is what the trained weights were made for.
  if (!finetune || finetune.base_model !== model.value || finetuneStatus(finetune.media_status) !== 'ready') {
    throw new HttpError(400, FINETUNE_NOT_USABLE);
  }
  return { finetune_id: finetune.id, finetune_style: finetune.style ?? {} };
}
