import { loadEnv } from './env';

/** A topic of the contextual help popover (SPEC §2.9, §2.10, §3 "Help topic"). */
export interface HelpTopic {
  index: number;
  title: string;
  /** Tutorial files under `{host}/tutorial/`, chosen by device type; null when the topic has none. */
  video_desktop: string | null;
  video_mobile: string | null;
  youtube_link: string | null;
  /** HTML. */
  description: string;
}

type TopicText = readonly [title: string, description: string];

// Index = position; SPEC §2.10 fixes the order and the titles.
const TOPICS: readonly TopicText[] = [
  ['Parallax Motion', '<p>Pick one or more 3D camera paths. Each selected motion creates one video.</p>'],
  [
    'AI Motion',
    '<p>Animate from a picture or from a text description. The strength setting decides which of the two has more power over the result.</p>',
  ],
  ['Transition to End Frame', '<p>Add an end frame and the video moves from your first picture to the second one.</p>'],
  ['OUTPUT SETTINGS', '<p>Choose the format, size and quality of the files you get back.</p>'],
  ['Share', '<p>Publish a video on the public examples page with a title and a description.</p>'],
  ['Share Options', '<p>Choose who can see what you share.</p>'],
  ['Prepare Image', '<p>Crop and adjust your picture before it is animated.</p>'],
  ['Preview', '<p>Watch a result before you download or share it.</p>'],
  ['Quantity', '<p>How many videos to make from one submission. Each one costs credits.</p>'],
  ['Result Type', '<p>Choose whether you get a video, a GIF or both.</p>'],
  ['Aspect Ratio', '<p>The shape of the result: wide, square, tall, or the original shape of your media.</p>'],
  ['Image To Image', '<p>Upload a picture and describe how it should change; the model draws a new picture from it.</p>'],
  ['Reimagine', '<p>Keep the idea of your picture and let the model draw it again in a new way.</p>'],
  ['Replace Background', '<p>Keep the subject of your picture and put it in front of a new background.</p>'],
  ['Text To Image', '<p>Describe a picture in words and pick a model to draw it.</p>'],
  ['Try On', '<p>Upload a person and a piece of clothing to see the person wearing it.</p>'],
  ['Video Settings', '<p>Length, motion amount, looping and model of the videos you create.</p>'],
  ['Transition', '<p>Blend one clip into the next.</p>'],
  ['Video Composer', '<p>Put clips, pictures and audio together into one video.</p>'],
  ['Edit Image', '<p>Remove text, expand, upscale or reframe a picture.</p>'],
  ['Character Animate', '<p>Bring a character in a picture to life with the moves of a reference video.</p>'],
  ['Audio', '<p>Add speech, music or sound effects to your video.</p>'],
  ['Idea for Story', '<p>Write the idea of your story in a few sentences; AI Story builds a storyboard from it.</p>'],
  ['Duration', '<p>How long the result lasts, in seconds.</p>'],
  ['Edit Video', '<p>Crop to an aspect ratio, enhance, reframe, add sound effects or attach audio to a video.</p>'],
  ['AI Batch', '<p>Make a whole album of clips at once from a script board.</p>'],
  ['Lip Sync', '<p>Make a face speak an uploaded audio, or a text read in one of the voices.</p>'],
  ['Text To Speech', '<p>Type a text and pick a voice to hear it spoken.</p>'],
  ['AI Story', '<p>Go from an idea to a storyboard, elements, scenes, videos and a script board, then one finished film.</p>'],
  ['Sound Effects', '<p>Describe a sound and choose how long it lasts.</p>'],
  ['Parallax Batch', '<p>Apply parallax camera paths to many pictures in one album.</p>'],
  ['Image Elements', '<p>Merge elements from several pictures into one new picture.</p>'],
  [
    'FineTune Options',
    '<p>Flux fine-tune: 5–20 images, about 2 minutes. Flux Pro fine-tune: 1–10 images, about 20 minutes. Flux Kontext fine-tune: 1–20 input/output image pairs plus a prompt, about 30 minutes.</p>',
  ],
  ['Face Order Index', '<p>The indices of the faces in the target image, counted 0, 1, 2 from left to right.</p>'],
  ['Text To Music', '<p>Describe a piece of music and the model composes it.</p>'],
  ['Restyle Image', '<p>Give a picture a new style while keeping what it shows.</p>'],
  ['Restyle Video', '<p>Give a video a new look, guided by a text or a reference picture.</p>'],
  ['Face Swap', '<p>Put the faces of one picture onto the faces of another.</p>'],
  ['Extend Video', '<p>Continue a video beyond its last frame.</p>'],
  ['Video Effects', '<p>Turn a picture into a short video with a ready-made effect.</p>'],
  ['LoRA Finetune', '<p>Train a custom model on your own pictures, then use it to generate images in your style.</p>'],
];

const fileStem = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export const HELP_TOPICS: readonly HelpTopic[] = TOPICS.map(([title, description], index) => ({
  index,
  title,
  video_desktop: `${fileStem(title)}-desktop.mp4`,
  video_mobile: `${fileStem(title)}-mobile.mp4`,
  youtube_link: null,
  description,
}));

/** Where a tutorial file lives: `{host}/tutorial/{file}`. */
export function tutorialVideoUrl(host: string, file: string): string {
  return `${host.replace(/\/$/, '')}/tutorial/${file}`;
}

/** SPEC §2.11: below 768 px wide the device is mobile; tablets get the desktop file. */
export type HelpDevice = 'mobile' | 'desktop';

/** What the popover shows as the topic's tutorial. */
export type TopicTutorial = { kind: 'embed'; src: string } | { kind: 'file'; src: string };

const YOUTUBE_ID = /^[A-Za-z0-9_-]{6,20}$/;

/**
 * The embeddable address of a video-host link (`watch?v=`, `youtu.be/`, `/embed/`, `/shorts/`),
 * or null when the link is not one: then the topic's own file is shown instead.
 */
export function youtubeEmbedUrl(link: string): string | null {
  if (!URL.canParse(link)) return null;
  const url = new URL(link);
  if (url.protocol !== 'https:') return null;
  const host = url.hostname.replace(/^www\.|^m\./, '');
  let id: string | null = null;
  if (host === 'youtu.be') id = url.pathname.slice(1);
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    const [, first, second] = url.pathname.split('/');
    id = first === 'watch' ? url.searchParams.get('v') : first === 'embed' || first === 'shorts' ? (second ?? null) : null;
  }
  return id && YOUTUBE_ID.test(id) ? `https://www.youtube-nocookie.com/embed/${id}` : null;
}

/**
 * The tutorial of a topic on this device: the embedded video-host video when the topic has a
 * usable link, else the desktop or mobile file under `{host}/tutorial/`, else nothing.
 */
export function topicTutorial(topic: HelpTopic, device: HelpDevice, host: string): TopicTutorial | null {
  const embed = topic.youtube_link ? youtubeEmbedUrl(topic.youtube_link) : null;
  if (embed) return { kind: 'embed', src: embed };
  const file = device === 'mobile' ? (topic.video_mobile ?? topic.video_desktop) : (topic.video_desktop ?? topic.video_mobile);
  return file ? { kind: 'file', src: tutorialVideoUrl(host, file) } : null;
}

let cachedHost: string | undefined;

/**
 * The `{host}` of tutorial files: VITE_MEDIA_HOST, or "" (the app's own origin, as the promo
 * reel's files are) when it is empty or the environment cannot be read.
 */
export function tutorialHost(): string {
  if (cachedHost !== undefined) return cachedHost;
  try {
    cachedHost = loadEnv().mediaHost;
  } catch {
    cachedHost = '';
  }
  return cachedHost;
}

const topicIndexOf = (title: string): number => {
  const index = TOPICS.findIndex(([topicTitle]) => topicTitle === title);
  if (index < 0) throw new Error(`no help topic is called ${title}`);
  return index;
};

/** The topics of the help buttons beside tool settings (SPEC §2.10 indices). */
export const SETTING_HELP_TOPICS = {
  share: topicIndexOf('Share'),
  shareOptions: topicIndexOf('Share Options'),
  quantity: topicIndexOf('Quantity'),
  aspectRatio: topicIndexOf('Aspect Ratio'),
  videoSettings: topicIndexOf('Video Settings'),
  ideaForStory: topicIndexOf('Idea for Story'),
  duration: topicIndexOf('Duration'),
  finetuneOptions: topicIndexOf('FineTune Options'),
  faceOrderIndex: topicIndexOf('Face Order Index'),
} as const;
