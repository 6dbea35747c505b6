import type { Queryable } from './database.ts';

export interface PromoVideoRow {
  id: string;
  title: string;
  video_url: string;
  thumbnail_url: string;
}

export async function listPromoVideos(db: Queryable): Promise<PromoVideoRow[]> {
  const { rows } = await db.query<PromoVideoRow>(
    'SELECT id, title, video_url, thumbnail_url FROM promo_videos ORDER BY position, id',
  );
  return rows;
}

export async function findPromoVideo(db: Queryable, id: string): Promise<PromoVideoRow | null> {
  const { rows } = await db.query<PromoVideoRow>(
    'SELECT id, title, video_url, thumbnail_url FROM promo_videos WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}
