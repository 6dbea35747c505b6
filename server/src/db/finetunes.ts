import type { FinetuneKind } from '../../../src/config/finetune.ts';
import type { Queryable } from './database.ts';
import { isLive, newPublicId, type StoredItem } from './media.ts';

/**
 * The finetunes table: a trained model (LoRA). Its training is a media job (tool `finetune`, the
 * preview picture its result); the row goes with that media row (ON DELETE CASCADE) and its
 * `style` is written when the training succeeds.
 */

export interface FinetuneRow {
  id: string;
  user_sub: string;
  media_id: string;
  name: string;
  option: FinetuneKind;
  /** The image model option it is used through (FluxFinetuned / FluxKontextFinetuned). */
  base_model: string;
  trigger_word: string;
  style: Record<string, unknown> | null;
  image_count: number;
  created_at: Date;
}

/** A trained model with the state of its training job, as the list shows it. */
export interface FinetuneWithJob extends FinetuneRow {
  media_status: string;
  media_items: StoredItem[];
}

const finetuneColumns = `f.id, f.user_sub, f.media_id, f.name, f.option, f.base_model, f.trigger_word, f.style, f.image_count,
  f.created_at`;

export interface NewFinetune {
  /** Chosen by the caller when the training job must name its model in the same transaction. */
  id?: string;
  userSub: string;
  mediaId: string;
  name: string;
  option: FinetuneKind;
  baseModel: string;
  triggerWord: string;
  imageCount: number;
}

/** Written in the transaction that queues its training job and debits it. */
export async function insertFinetune(tx: Queryable, finetune: NewFinetune): Promise<FinetuneRow> {
  const { rows } = await tx.query<FinetuneRow>(
    `INSERT INTO finetunes AS f (id, user_sub, media_id, name, option, base_model, trigger_word, image_count)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${finetuneColumns}`,
    [
      finetune.id ?? newPublicId(),
      finetune.userSub,
      finetune.mediaId,
      finetune.name,
      finetune.option,
      finetune.baseModel,
      finetune.triggerWord,
      finetune.imageCount,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('INSERT INTO finetunes returned no row');
  return row;
}

/** The caller's trained models with their training jobs' states, newest first. */
export async function listOwnFinetunes(db: Queryable, userSub: string): Promise<FinetuneWithJob[]> {
  const { rows } = await db.query<FinetuneWithJob>(
    `SELECT ${finetuneColumns}, m.status AS media_status, m.items AS media_items
     FROM finetunes f JOIN media m ON m.id = f.media_id
     WHERE f.user_sub = $1 ORDER BY f.created_at DESC, f.id DESC`,
    [userSub],
  );
  return rows;
}

/** One of the caller's trained models with its training job's state; null when unknown or someone else's. */
export async function findOwnFinetune(db: Queryable, id: string, userSub: string): Promise<FinetuneWithJob | null> {
  const { rows } = await db.query<FinetuneWithJob>(
    `SELECT ${finetuneColumns}, m.status AS media_status, m.items AS media_items
     FROM finetunes f JOIN media m ON m.id = f.media_id
     WHERE f.id = $1 AND f.user_sub = $2`,
    [id, userSub],
  );
  return rows[0] ?? null;
}

/** Stores what the training learned; call it in the transaction that completes the training job. */
export async function setFinetuneStyle(tx: Queryable, mediaId: string, style: Record<string, unknown>): Promise<void> {
  await tx.query('UPDATE finetunes SET style = $2::jsonb WHERE media_id = $1', [mediaId, JSON.stringify(style)]);
}

export type FinetuneStatus = 'training' | 'ready' | 'failed';

/** A trained model follows its training job: live → training; any success_* → ready; ended otherwise → failed. */
export function finetuneStatus(mediaStatus: string): FinetuneStatus {
  if (isLive(mediaStatus)) return 'training';
  return mediaStatus.startsWith('success') ? 'ready' : 'failed';
}
