import type { ModelOption } from '../../../src/config/asset-tools.ts';
import type { Queryable } from '../db/database.ts';
import type { MultipartBody } from './multipart-body.ts';
import type { AuthUser } from './user-auth.ts';

/** What an image job keeps of the trained model it was asked to use. */
export interface FinetuneArg {
  finetune_id: string;
  /** The learned style the render engine applies (Kinora's; see render/finetune-style.ts). */
  finetune_style: Record<string, unknown>;
}

/**
 * The `finetune_id` field of an image call (text-to-image with FluxFinetuned, image-to-image with
 * FluxKontextFinetuned): null when none was sent; throws HttpError 400 when the id is not the
 * caller's ready model of that base model. To be written (issue 5).
 */
export async function resolveFinetuneArg(
  _db: Queryable,
  _user: AuthUser,
  _body: MultipartBody,
  _model: ModelOption,
): Promise<FinetuneArg | null> {
  return null;
}
