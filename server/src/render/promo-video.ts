import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { MOTION_PRESET_DEFAULTS } from '../../../src/config/limits.ts';
import type { RenderProvider } from './provider.ts';

/**
 * The home page's promo reel (SPEC §7 promo-videos): each promo's MP4 is a short parallax clip of
 * its poster, rendered once by the local render engine (on its video workers) and kept in the
 * media folder. The cache folder's name has a dot, so the media store's orphan sweep (which
 * looks at media-id folders only) leaves it alone.
 */

export const PROMO_CACHE_FOLDER = 'promo.cache';
/** Seconds of each promo clip. */
const PROMO_SECONDS = 3;
/** What a promo id may be to become a file name. */
const PROMO_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface PromoVideoCache {
  /** The MP4 of this promo (rendered the first time, then read from the cache). */
  videoPath(id: string, posterSvg: string): Promise<string>;
}

const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    (info) => info.isFile() && info.size > 0,
    () => false,
  );

export function createPromoVideoCache(mediaDir: string, provider: RenderProvider): PromoVideoCache {
  const folder = path.join(path.resolve(mediaDir), PROMO_CACHE_FOLDER);
  // Concurrent first requests for one promo share one render.
  const rendering = new Map<string, Promise<string>>();

  async function render(id: string, posterSvg: string, target: string): Promise<string> {
    await mkdir(folder, { recursive: true });
    const poster = path.join(folder, `${id}-poster.png`);
    await writeFile(poster, await sharp(Buffer.from(posterSvg)).png().toBuffer());
    const rendered = await provider.renderVideo({
      creationType: 'parallax-motion',
      motionMode: null,
      preset: {
        ...MOTION_PRESET_DEFAULTS,
        motion_type: 'Parallax',
        camera_path: 'HorizontalArc',
        prompt: '',
        quantity: 1,
        motion_length: PROMO_SECONDS,
        loop: 1,
        model: 'Parallax',
      },
      index: 1,
      inputs: [{ path: poster, contentType: 'image/png', field: 'image_urls' }],
      prompt: '',
      promptStrength: 0,
      model: 'Parallax',
      seed: `promo:${id}`,
      logo: false,
    });
    const video = rendered[0]?.video;
    if (!video) throw new Error(`the promo video ${id} rendered no file`);
    // Written aside and renamed: a reader never sees half a file.
    const partial = `${target}.${process.pid}.partial`;
    await writeFile(partial, video.data);
    await rename(partial, target);
    return target;
  }

  return {
    async videoPath(id, posterSvg) {
      if (!PROMO_ID.test(id)) throw new RangeError(`not a promo video id: ${id}`);
      const target = path.join(folder, `${id}.mp4`);
      if (await exists(target)) return target;
      const running = rendering.get(id);
      if (running) return running;
      const started = render(id, posterSvg, target).finally(() => rendering.delete(id));
      rendering.set(id, started);
      return started;
    },
  };
}
