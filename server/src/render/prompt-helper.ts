import { stripQuotes } from '../../../src/lib/strip-quotes.ts';
import { promptWords } from './palette.ts';
import { hashParts } from './seeded-random.ts';

/**
 * The prompt helper's stand-in (SPEC §9 prompt helper modes; POST text/prompt): every answer is
 * derived from the inputs alone, so the same request always gives the same prompt.
 */

/** What the prompt is for (Kinora's `mode` field of text/prompt); unknown purposes read as image. */
export const PROMPT_PURPOSES = ['image', 'video', 'audio', 'speech', 'music', 'sound'] as const;
export type PromptPurpose = (typeof PROMPT_PURPOSES)[number];

export type PromptHelperOption = 'SuggestPrompt' | 'RefinePrompt' | 'Image2Prompt' | 'InspireMe';

export interface PromptHelperInput {
  option: PromptHelperOption;
  prompt: string;
  mode: string;
  /** Image2Prompt: the picture's description (RenderProvider.describeImage). */
  imageDescription?: string | null;
}

/** The request cannot be answered as given (Image2Prompt without a picture); the message is for the user. */
export class PromptHelperInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PromptHelperInputError';
  }
}

export const IMAGE2PROMPT_NEEDS_IMAGE = 'Image2Prompt needs an image_url or image_file';

const INSPIRATIONS: Readonly<Record<PromptPurpose, readonly string[]>> = {
  image: [
    'A lighthouse on a cliff at dusk, waves crashing below, warm light in the lantern room',
    'A tiny robot watering a window-box garden in a rainy city, reflections on the glass',
    'An old library inside a hollow tree, lanterns hanging from the branches',
    'A fox in a snowy birch forest at sunrise, breath visible in the cold air',
    'A floating market on a turquoise river, boats piled with tropical fruit',
    'A cosy mountain cabin at night under a sky full of stars, smoke rising from the chimney',
    'A portrait of an elderly sailor with a weathered face and a knitted cap, soft window light',
    'A futuristic train crossing a desert of red dunes under two moons',
    'A bowl of ramen on a wooden counter, steam rising, neon signs blurred behind',
    'A hot-air balloon festival over green hills in early morning mist',
    'A koi pond seen from above, autumn leaves drifting on the water',
    'A street musician playing violin under a bridge, golden evening light',
  ],
  video: [
    'A slow dolly shot through a field of sunflowers as the sun breaks through the clouds',
    'A paper boat drifting down a rain-soaked street, the camera following at water level',
    'Time-lapse of a city skyline going from dusk to night as the lights come on',
    'A hummingbird hovering at a red flower, slow motion, shallow depth of field',
    'Waves rolling onto a black-sand beach, aerial view slowly rising',
    'A cup of coffee being poured in morning light, steam curling upward, close-up',
    'A cyclist riding along a coastal road at sunset, tracking shot from the side',
    'Snow falling on a quiet village square, the camera slowly panning right',
    'A candle flame flickering in a dark room, then blown out, smoke drifting',
    'Northern lights dancing over a frozen lake, slow pan across the horizon',
  ],
  audio: [
    'Rain on a tin roof with distant thunder rolling in',
    'A busy café: cups clinking, quiet chatter, an espresso machine hissing',
    'Waves washing over pebbles on a calm beach',
    'A crackling campfire with crickets in the background',
    'Footsteps on fresh snow in a silent forest',
    'An old clock ticking in a quiet room, a chime on the hour',
    'Wind through tall grass with birds calling far away',
    'A train passing over a bridge, rhythmic clatter fading out',
  ],
  speech: [
    'Welcome back! Today we are going to build something small, useful and fun.',
    'Every great journey starts with a single step. Let us take that step together.',
    'Thank you for calling. Your call is important to us, and someone will be with you shortly.',
    'Once upon a time, in a village by the sea, there lived a girl who collected storms.',
    'Good morning! Here is your weather: sunny spells, a light breeze, and a warm afternoon.',
    'In this short guide, you will learn three simple habits for a calmer day.',
    'Ladies and gentlemen, please take your seats. The show is about to begin.',
    'Breathe in slowly. Hold it for a moment. Now let it go, and relax your shoulders.',
  ],
  music: [
    'A calm lo-fi beat with soft piano chords and vinyl crackle, 75 BPM',
    'An uplifting cinematic theme with swelling strings and a steady drum pulse',
    'A bright acoustic folk tune with fingerpicked guitar and whistling',
    'A dreamy synthwave track with warm pads and a driving bassline, 100 BPM',
    'A gentle lullaby on music box and celesta, slow and tender',
    'An energetic funk groove with slap bass, brass stabs and tight drums',
    'A mysterious ambient piece with deep drones and distant bells',
    'A joyful ukulele melody with hand claps for a summer video',
  ],
  sound: [
    'A heavy wooden door creaking open in an empty hall',
    'A sci-fi laser blast followed by a short electric fizz',
    'A glass bottle clinking onto a stone floor and rolling away',
    'A thunderclap close by, rumbling into the distance',
    'A cartoon spring boing with a quick whistle slide',
    'A notification chime: two soft bell tones, rising',
    'Footsteps running up a metal staircase',
    'A car engine starting, revving twice, then idling',
  ],
};

/** Details Suggest adds, by subject, for pictures and video. */
const SUBJECT_DETAILS: readonly { words: readonly string[]; details: readonly string[] }[] = [
  {
    words: ['portrait', 'person', 'woman', 'man', 'girl', 'boy', 'face', 'child', 'people', 'character', 'wizard', 'knight', 'astronaut'],
    details: ['soft window light', 'shallow depth of field', 'expressive eyes in sharp focus', '85 mm lens', 'natural skin texture', 'muted background'],
  },
  {
    words: ['landscape', 'mountain', 'mountains', 'valley', 'forest', 'lake', 'sea', 'ocean', 'beach', 'desert', 'field', 'river', 'sunset', 'sunrise'],
    details: ['golden hour light', 'wide-angle view', 'layered depth from foreground to horizon', 'dramatic clouds', 'mist in the distance', 'rich natural colours'],
  },
  {
    words: ['cat', 'dog', 'fox', 'bird', 'horse', 'owl', 'wolf', 'lion', 'tiger', 'animal', 'bear', 'rabbit'],
    details: ['detailed fur', 'eye-level shot', 'catchlight in the eyes', 'natural habitat', 'soft bokeh behind', 'calm, curious expression'],
  },
  {
    words: ['city', 'street', 'building', 'architecture', 'skyline', 'tower', 'bridge', 'room', 'interior', 'house'],
    details: ['blue hour light', 'reflections on wet pavement', 'symmetrical composition', 'leading lines', 'warm windows against a cool sky', 'fine architectural detail'],
  },
  {
    words: ['food', 'cake', 'coffee', 'ramen', 'pizza', 'fruit', 'bread', 'dish', 'breakfast', 'tea'],
    details: ['overhead shot', 'natural side light', 'rustic wooden table', 'steam rising', 'fresh garnish', 'shallow depth of field'],
  },
];
const GENERAL_DETAILS = ['cinematic lighting', 'rich detail', 'balanced composition', 'subtle colour grading', 'soft shadows', 'a clear focal point'];
const IMAGE_STYLES = ['photorealistic', 'digital painting', 'shot on 35 mm film', 'watercolour illustration', 'high-detail 3D render', 'editorial photograph'];
const VIDEO_MOTION = ['slow dolly-in', 'smooth tracking shot', 'gentle handheld sway', 'slow pan to the right', 'steady aerial pull-back', 'locked-off camera'];

const PURPOSE_DETAILS: Readonly<Record<'audio' | 'sound' | 'music', readonly string[]>> = {
  audio: ['close-miked and crisp', 'a subtle room reverb', 'a quiet ambient bed underneath', 'a clean stereo field', 'natural dynamics'],
  sound: ['close-miked and crisp', 'a short natural tail', 'punchy transient', 'a little room reverb', 'clean, with no background noise'],
  music: ['warm analog synth pads', 'a memorable lead melody', 'a steady, relaxed groove', 'a rich low end', 'a gentle build toward the end', 'light percussion'],
};

/** Concrete details Refine may add as one short sentence; one already present is not added again. */
const REFINE_DETAILS: Readonly<Record<Exclude<PromptPurpose, 'speech'>, readonly string[]>> = {
  image: ['Soft morning light falls from the left.', 'Shot at eye level with a shallow depth of field.', 'Fine texture is visible in the foreground.', 'A warm colour palette ties the scene together.', 'The main subject sits on the left third of the frame.'],
  video: ['The camera moves slowly forward.', 'The light shifts gently over five seconds.', 'Slow motion at the key moment.', 'The camera tracks the subject from the side.', 'A steady shot with a slight push-in.'],
  audio: ['Recorded close, with a soft room tone.', 'Natural dynamics with a short tail.', 'A quiet ambience sits underneath.', 'Clean stereo with no background hiss.'],
  sound: ['Recorded close, with a soft room tone.', 'A crisp attack and a short natural tail.', 'Clean, with no background hiss.', 'A little reverb, as in a small room.'],
  music: ['Around 90 BPM.', 'Piano carries the melody.', 'A soft drum groove enters halfway.', 'It ends on a gentle fade.', 'Warm pads hold the harmony.'],
};

const SPEECH_FOLLOW_UPS = [
  'Let us take a closer look.',
  'Here is what you need to know.',
  'Thank you for listening.',
  'Stay with us, there is more to come.',
  'We hope you enjoy it.',
];

function purposeOf(mode: string): PromptPurpose {
  return (PROMPT_PURPOSES as readonly string[]).includes(mode) ? (mode as PromptPurpose) : 'image';
}

function choose<T>(items: readonly T[], ...seed: unknown[]): T {
  return items[hashParts(...seed) % items.length] as T;
}

/** `count` different items, chosen by the seed. */
function chooseSeveral<T>(items: readonly T[], count: number, ...seed: unknown[]): T[] {
  const start = hashParts(...seed) % items.length;
  const step = items.length > 2 ? 1 + (hashParts('step', ...seed) % (items.length - 1)) : 1;
  const chosen: T[] = [];
  for (let index = 0; chosen.length < Math.min(count, items.length) && index < items.length * 2; index += 1) {
    const item = items[(start + index * step) % items.length] as T;
    if (!chosen.includes(item)) chosen.push(item);
  }
  return chosen;
}

const words = (text: string) => text.split(' ').filter((word) => word !== '');
/** A word compared without case and surrounding punctuation. */
const bare = (word: string) => word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** Trims, strips one pair of quotes, collapses spaces, fixes spaces around punctuation, drops "the the". */
export function cleanPrompt(prompt: string): string {
  const spaced = stripQuotes(prompt.trim())
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/([,;:])(?=[\p{L}])/gu, '$1 ');
  const kept: string[] = [];
  for (const word of words(spaced)) {
    const previous = kept.at(-1);
    // A repeat right after a word without punctuation is a typo ("the the"); "no, no" is meant.
    if (previous !== undefined && bare(previous) !== '' && bare(previous) === bare(word) && /[\p{L}\p{N}]$/u.test(previous)) continue;
    kept.push(word);
  }
  return kept.join(' ');
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const withFullStop = (text: string) => (/[.!?…]$/.test(text) ? text : `${text.replace(/[,;:]+$/, '')}.`);

function suggest(prompt: string, purpose: PromptPurpose): string {
  const base = cleanPrompt(prompt) || choose(INSPIRATIONS[purpose], 'inspire', purpose, '');
  const trimmed = base.replace(/[.!?,;:\s]+$/, '');
  const has = (phrase: string) => trimmed.toLowerCase().includes(phrase.toLowerCase());
  if (purpose === 'speech') return `${withFullStop(capitalise(trimmed))} ${choose(SPEECH_FOLLOW_UPS, 'speech', trimmed)}`;
  let additions: string[];
  if (purpose === 'image' || purpose === 'video') {
    const found = new Set(promptWords(trimmed));
    const subject = SUBJECT_DETAILS.find((entry) => entry.words.some((word) => found.has(word)));
    additions = chooseSeveral(subject?.details ?? GENERAL_DETAILS, 3, 'suggest', purpose, trimmed);
    additions.push(purpose === 'image' ? choose(IMAGE_STYLES, 'style', trimmed) : choose(VIDEO_MOTION, 'motion', trimmed));
  } else {
    additions = chooseSeveral(PURPOSE_DETAILS[purpose], 3, 'suggest', purpose, trimmed);
  }
  const fresh = additions.filter((addition) => !has(addition));
  return [capitalise(trimmed), ...fresh].join(', ');
}

function refine(prompt: string, purpose: PromptPurpose): string {
  const cleaned = cleanPrompt(prompt);
  if (cleaned === '') return choose(INSPIRATIONS[purpose], 'inspire', purpose, '');
  const sentence = withFullStop(capitalise(cleaned));
  // Speech is read out word for word: refining it only tidies it, it adds nothing to say.
  if (purpose === 'speech') return sentence;
  const details = REFINE_DETAILS[purpose];
  if (details.some((detail) => sentence.toLowerCase().includes(detail.toLowerCase()))) return sentence;
  return `${sentence} ${choose(details, 'refine', purpose, sentence)}`;
}

/** The answer of POST text/prompt for one request. */
export function derivePrompt(input: PromptHelperInput): string {
  const purpose = purposeOf(input.mode);
  switch (input.option) {
    case 'SuggestPrompt':
      return suggest(input.prompt, purpose);
    case 'RefinePrompt':
      return refine(input.prompt, purpose);
    case 'Image2Prompt': {
      const description = input.imageDescription?.trim();
      if (!description) throw new PromptHelperInputError(IMAGE2PROMPT_NEEDS_IMAGE);
      const extra = cleanPrompt(input.prompt);
      return extra === '' ? withFullStop(description) : `${withFullStop(description)} ${withFullStop(capitalise(extra))}`;
    }
    case 'InspireMe':
      return choose(INSPIRATIONS[purpose], 'inspire', purpose, cleanPrompt(input.prompt));
    default: {
      const unknown: never = input.option;
      throw new PromptHelperInputError(`Unknown prompt helper option ${String(unknown)}`);
    }
  }
}

/**
 * What a language model is asked for each prompt helper mode (fal's LLM when fal is the provider):
 * the system prompt and the user's words. Image2Prompt is the vision model's (describeImage).
 */
export function promptHelperRequest(option: Exclude<PromptHelperOption, 'Image2Prompt'>, prompt: string, mode: string): { system: string; prompt: string } {
  const purpose = purposeOf(mode);
  const medium = purpose === 'image' ? 'an image generator' : purpose === 'video' ? 'a video generator' : `a ${purpose} generator`;
  const rule = `Answer with the prompt only: one paragraph, no quotes, no preamble, at most 80 words. It is for ${medium}.`;
  switch (option) {
    case 'SuggestPrompt':
      return { system: `You suggest a vivid, concrete prompt that continues the user's idea. ${rule}`, prompt: cleanPrompt(prompt) || 'Suggest something.' };
    case 'RefinePrompt':
      return { system: `You rewrite the user's prompt to be clearer and richer in detail, keeping its meaning. ${rule}`, prompt: cleanPrompt(prompt) };
    case 'InspireMe':
      return { system: `You invent one surprising, beautiful idea. ${rule}`, prompt: cleanPrompt(prompt) || 'Inspire me.' };
  }
}
