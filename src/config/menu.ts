import { ALBUM_TEXTS } from './album-texts';
import { TOOL_TEXTS } from './job-texts';
import { ROUTES } from './routes';

/** Identifies the page a menu link opens; unique across groups (the image and video try-on differ). */
export type MenuTool =
  | 'text-to-speech'
  | 'text-to-audio'
  | 'text-to-music'
  | 'text-to-image'
  | 'image-to-image'
  | 'face-swap'
  | 'try-on-image'
  | 'image-elements'
  | 'replace-background'
  | 'edit-image'
  | 'restyle'
  | 'ai-motion'
  | 'character-animate'
  | 'try-on-video'
  | 'edit-video'
  | 'video-effects'
  | 'lip-sync'
  | 'replace-background-video'
  | 'modify-video'
  | 'ai-story'
  | 'finetune';

export interface MenuItem {
  label: string;
  path: string;
  tool: MenuTool;
}

/** A Kinora page that SPEC §2.3 does not list but the menu links, so every tool page is reachable from it. */
export interface MenuExtra {
  label: string;
  path: string;
}

export interface MenuGroup {
  label: string;
  path: string;
  /** SPEC §2.3's links, in SPEC order and with SPEC's labels; the router makes a tool page of each. */
  items: MenuItem[];
  /** Shown after `items` (issue 17): pages with routes of their own that no menu reached before. */
  extras: MenuExtra[];
}

/**
 * The navigation menu of SPEC §2.3, groups and links in SPEC order, each group followed by its
 * Kinora pages outside SPEC's list (parallax, reimagine, uploads, albums).
 */
export const MENU: readonly MenuGroup[] = [
  {
    label: 'AI Audio',
    path: ROUTES.aiAudio.root,
    items: [
      { label: 'Text to Speech', path: ROUTES.aiAudio.textToSpeech, tool: 'text-to-speech' },
      { label: 'Sound Effects', path: ROUTES.aiAudio.textToAudio, tool: 'text-to-audio' },
      { label: 'Text to Music', path: ROUTES.aiAudio.textToMusic, tool: 'text-to-music' },
    ],
    extras: [{ label: TOOL_TEXTS.uploadPageTitle.audio, path: ROUTES.aiAudio.uploadAudio }],
  },
  {
    label: 'AI Image',
    path: ROUTES.aiImage.root,
    items: [
      { label: 'Text to Image', path: ROUTES.aiImage.textToImage, tool: 'text-to-image' },
      { label: 'Image to Image', path: ROUTES.aiImage.imageToImage, tool: 'image-to-image' },
      { label: 'Face Swap', path: ROUTES.aiImage.faceSwap, tool: 'face-swap' },
      { label: 'Try On Image', path: ROUTES.aiImage.tryOn, tool: 'try-on-image' },
      { label: 'Image Elements', path: ROUTES.aiImage.imageElements, tool: 'image-elements' },
      { label: 'Replace Background', path: ROUTES.aiImage.replaceBackground, tool: 'replace-background' },
      { label: 'Edit Image', path: ROUTES.aiImage.editImage, tool: 'edit-image' },
      { label: 'Restyle Image', path: ROUTES.aiImage.restyle, tool: 'restyle' },
    ],
    extras: [
      { label: 'Reimagine', path: ROUTES.aiImage.reimagine },
      { label: TOOL_TEXTS.uploadPageTitle.image, path: ROUTES.aiImage.uploadImage },
    ],
  },
  {
    label: 'AI Video',
    path: ROUTES.aiVideo.root,
    items: [
      { label: 'AI Motion', path: ROUTES.aiVideo.aiMotion, tool: 'ai-motion' },
      { label: 'Character Animate', path: ROUTES.aiVideo.characterAnimate, tool: 'character-animate' },
      { label: 'Try On Video', path: ROUTES.aiVideo.tryOn, tool: 'try-on-video' },
      { label: 'Edit Video', path: ROUTES.aiVideo.editVideo, tool: 'edit-video' },
      { label: 'Video Effects', path: ROUTES.aiVideo.videoEffects, tool: 'video-effects' },
      { label: 'Lip Sync', path: ROUTES.aiVideo.lipSync, tool: 'lip-sync' },
      { label: 'Replace Background', path: ROUTES.aiVideo.replaceBackgroundVideo, tool: 'replace-background-video' },
      { label: 'Restyle Video', path: ROUTES.aiVideo.modifyVideo, tool: 'modify-video' },
    ],
    extras: [
      { label: TOOL_TEXTS.parallaxMotionLink, path: ROUTES.aiVideo.parallaxMotion },
      { label: ALBUM_TEXTS.albumsLink, path: ROUTES.aiVideo.albums },
      { label: TOOL_TEXTS.uploadPageTitle.video, path: ROUTES.aiVideo.uploadVideo },
    ],
  },
  {
    label: 'AI Production',
    path: ROUTES.aiProduction.root,
    items: [
      { label: 'AI Story', path: ROUTES.aiProduction.aiStory, tool: 'ai-story' },
      { label: 'LoRA Finetune', path: ROUTES.aiProduction.finetune, tool: 'finetune' },
    ],
    extras: [],
  },
];

/** The group a path belongs to (its page, a tool, an extra, or a page below one such as an album), if any. */
export function menuGroupOf(pathname: string): MenuGroup | undefined {
  return MENU.find((group) => pathname.startsWith(group.path));
}
