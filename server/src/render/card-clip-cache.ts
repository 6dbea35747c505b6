import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { MOTION_PRESET_DEFAULTS } from '../../../src/config/limits.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import type { RenderProvider } from './provider.ts';

/**
 * Short parallax clips of a still card (the promo reel, the help topics' tutorials): each is
 * rendered once by the local render engine (on its video workers) and kept in a cache folder of
 * the media's object store (the local folder or the bucket). The folder's name has a dot, so the
 * media store's orphan sweep (which looks at media-id folders only) leaves it alone.
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
  /** The storage key of this clip's MP4 (rendered the first time, then read from the cache). */
  clipKey(clip: CardClip): Promise<string>;
}

export function createCardClipCache(objects: ObjectStore, cacheFolder: string, provider: RenderProvider): CardClipCache {
  // Concurrent first requests for one clip share one render.
  const rendering = new Map<string, Promise<string>>();

  async function render(clip: CardClip, key: string): Promise<string> {
    // The renderer reads its input from a file: the card is drawn into a scratch folder.
    const scratch = await mkdtemp(path.join(tmpdir(), 'kinora-card-'));
    try {
      const card = path.join(scratch, 'card.png');
      await writeFile(card, await sharp(Buffer.from(clip.cardSvg)).png().toBuffer());
      const video = await renderClip(clip, card);
      await objects.put(key, video, 'video/mp4');
      return key;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  async function renderClip(clip: CardClip, card: string): Promise<Buffer> {
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
    return video.data;
  }

  return {
    async clipKey(clip) {
      const key = `${cacheFolder}/${clip.fileName}`;
      // The store's put makes an object appear whole, so one that is there is complete.
      if (((await objects.size(key)) ?? 0) > 0) return key;
      const running = rendering.get(clip.fileName);
      if (running) return running;
      const started = render(clip, key).finally(() => rendering.delete(clip.fileName));
      rendering.set(clip.fileName, started);
      return started;
    },
  };
}
