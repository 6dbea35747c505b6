import { createCardClipCache } from './card-clip-cache.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import type { RenderProvider } from './provider.ts';

/**
 * The home page's promo reel (SPEC §7 promo-videos): each promo's MP4 is a short parallax clip of
 * its poster, rendered once by the local render engine (on its video workers) and kept in the
 * media's object store. The cache folder's name has a dot, so the media store's orphan sweep (which
 * looks at media-id folders only) leaves it alone.
 */

export const PROMO_CACHE_FOLDER = 'promo.cache';
/** Seconds of each promo clip. */
const PROMO_SECONDS = 3;
/** What a promo id may be to become a file name. */
const PROMO_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface PromoVideoCache {
  /** The storage key of this promo's MP4 (rendered the first time, then read from the cache). */
  videoKey(id: string, posterSvg: string): Promise<string>;
}

export function createPromoVideoCache(objects: ObjectStore, provider: RenderProvider): PromoVideoCache {
  const clips = createCardClipCache(objects, PROMO_CACHE_FOLDER, provider);
  return {
    async videoKey(id, posterSvg) {
      if (!PROMO_ID.test(id)) throw new RangeError(`not a promo video id: ${id}`);
      return clips.clipKey({
        fileName: `${id}.mp4`,
        cardSvg: posterSvg,
        cameraPath: 'HorizontalArc',
        seconds: PROMO_SECONDS,
        seed: `promo:${id}`,
      });
    },
  };
}
