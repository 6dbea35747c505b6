import type { HelpDevice } from '../../../src/config/help-topics.ts';
import { escapeMarkup } from '../lib/escape-markup.ts';
import { createCardClipCache } from './card-clip-cache.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import type { RenderProvider } from './provider.ts';

/**
 * The help topics' tutorial files (SPEC §2.9 item 4, `{host}/tutorial/{file}`): each is a short
 * parallax clip of a title card for its topic, landscape for desktop and portrait for mobile,
 * rendered once by the local render engine (on its video workers, as the promo reel's clips are)
 * and kept in the media's object store. The cache folder's name has a dot, so the media store's orphan
 * sweep (which looks at media-id folders only) leaves it alone.
 */

export const TUTORIAL_CACHE_FOLDER = 'tutorial.cache';
/** Seconds of each tutorial clip. */
const TUTORIAL_SECONDS = 3;
/** What a tutorial file may be called (HELP_TOPICS names them `{stem}-{device}.mp4`). */
export const TUTORIAL_FILE = /^[a-z0-9-]{1,80}\.mp4$/;

const CARD_SIZE: Readonly<Record<HelpDevice, { width: number; height: number }>> = {
  desktop: { width: 640, height: 360 },
  mobile: { width: 360, height: 640 },
};

/** The title card a tutorial clip moves over: the topic's title on the product's colours. */
export function tutorialCardSvg(title: string, device: HelpDevice): string {
  const { width, height } = CARD_SIZE[device];
  const fontSize = device === 'desktop' ? 34 : 26;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0f766e"/><stop offset="1" stop-color="#3b1d8f"/></linearGradient></defs>
<rect width="${width}" height="${height}" fill="url(#g)"/>
<rect x="${width / 2 - 60}" y="${height / 2 - 80}" width="120" height="80" rx="12" fill="#ffffff" fill-opacity="0.9"/>
<path d="M${width / 2 - 14} ${height / 2 - 58} L${width / 2 + 20} ${height / 2 - 40} L${width / 2 - 14} ${height / 2 - 22} Z" fill="#0f766e"/>
<text x="${width / 2}" y="${height / 2 + 50}" text-anchor="middle" font-family="sans-serif" font-size="${fontSize}" fill="#ffffff">${escapeMarkup(title)}</text>
<text x="${width / 2}" y="${height / 2 + 50 + fontSize + 8}" text-anchor="middle" font-family="sans-serif" font-size="${Math.round(fontSize * 0.6)}" fill="#ffffff" fill-opacity="0.8">Kinora tutorial</text>
</svg>`;
}

export interface TutorialClip {
  /** The file name, e.g. `share-desktop.mp4`. */
  file: string;
  title: string;
  device: HelpDevice;
}

export interface TutorialVideoCache {
  /** The storage key of this clip's MP4 (rendered the first time, then read from the cache). */
  videoKey(clip: TutorialClip): Promise<string>;
}

export function createTutorialVideoCache(objects: ObjectStore, provider: RenderProvider): TutorialVideoCache {
  const clips = createCardClipCache(objects, TUTORIAL_CACHE_FOLDER, provider);
  return {
    async videoKey(clip) {
      if (!TUTORIAL_FILE.test(clip.file)) throw new RangeError(`not a tutorial file name: ${clip.file}`);
      return clips.clipKey({
        fileName: clip.file,
        cardSvg: tutorialCardSvg(clip.title, clip.device),
        cameraPath: clip.device === 'desktop' ? 'HorizontalArc' : 'VerticalArc',
        seconds: TUTORIAL_SECONDS,
        seed: `tutorial:${clip.file}`,
      });
    },
  };
}
