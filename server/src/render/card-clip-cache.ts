import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { MOTION_PRESET_DEFAULTS } from '../../../src/config/limits.ts';
import type { RenderProvider } from './provider.ts';

/**
 * Short parallax clips of a still card (the promo reel, the help topics' tutorials): each is
 * rendered once by the local render engine (on its video workers) and kept in a cache folder of
 * the media folder. The folder's name has a dot, so the media store's orphan sweep (which looks
 * at media-id folders only) leaves it alone.
 */

export interface CardClip {
  /** The clip's file name in the cache folder (already checked by the caller). */
  fileName: string;
  /** The card the camera moves over, as SVG. */
  cardSvg: string;
  cameraPath: 'HorizontalArc' | 'VerticalArc';
  seconds: number;
  /** What makes the render repeatable. */
  seed: string;
}

export interface CardClipCache {
  /** The MP4 of this clip (rendered the first time, then read from the cache). */
  clipPath(clip: CardClip): Promise<string>;
}

const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    (info) => info.isFile() && info.size > 0,
    () => false,
  );

export function createCardClipCache(mediaDir: string, cacheFolder: string, provider: RenderProvider): CardClipCache {
  const folder = path.join(path.resolve(mediaDir), cacheFolder);
  // Concurrent first requests for one clip share one render.
  const rendering = new Map<string, Promise<string>>();

  async function render(clip: CardClip, target: string): Promise<string> {
    await mkdir(folder, { recursive: true });
    const card = path.join(folder, `${clip.fileName}.card.png`);
    await writeFile(card, await sharp(Buffer.from(clip.cardSvg)).png().toBuffer());
    const rendered = await provider.renderVideo({
      creationType: 'parallax-motion',
      motionMode: null,
      preset: {
        ...MOTION_PRESET_DEFAULTS,
        motion_type: 'Parallax',
        camera_path: clip.cameraPath,
        prompt: '',
        quantity: 1,
        motion_length: clip.seconds,
        loop: 1,
        model: 'Parallax',
      },
      index: 1,
      inputs: [{ path: card, contentType: 'image/png', field: 'image_urls' }],
      prompt: '',
      promptStrength: 0,
      model: 'Parallax',
      seed: clip.seed,
      logo: false,
    });
    const video = rendered[0]?.video;
    if (!video) throw new Error(`the clip ${clip.fileName} rendered no file`);
    // Written aside and renamed: a reader never sees half a file.
    const partial = `${target}.${process.pid}.partial`;
    await writeFile(partial, video.data);
    await rename(partial, target);
    return target;
  }

  return {
    async clipPath(clip) {
      const target = path.join(folder, clip.fileName);
      if (await exists(target)) return target;
      const running = rendering.get(clip.fileName);
      if (running) return running;
      const started = render(clip, target).finally(() => rendering.delete(clip.fileName));
      rendering.set(clip.fileName, started);
      return started;
    },
  };
}
