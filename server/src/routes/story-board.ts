import {
  STORY_ELEMENT_DESCRIPTION_MAX,
  STORY_ELEMENT_NAME_MAX,
  STORY_SCENE_DURATION,
  STORY_SCENE_TEXT_MAX,
  STORY_SCENES,
  STORY_TITLE_MAX,
  type StoryElementKind,
  type StoryShot,
} from '../../../src/config/story.ts';
import { DEFAULT_VOICE } from '../../../src/config/voices.ts';
import { clipText, scenesNarration } from '../../../src/lib/story.ts';
import { storyboardSchema, type Storyboard, type StoryElement, type StoryScene } from '../../../src/services/schemas/story.ts';

/**
 * The first storyboard of an idea (POST story, PUT story/{id} with rewrite): free, synchronous
 * and deterministic — the same idea always gives the same board. The idea's sentences (or their
 * clauses) become scenes of about five seconds each, the people, animals, places and things it
 * names become the elements, and the scenes are read aloud as the narration.
 */

export interface StoryboardInput {
  idea: string;
  /** The film's length in seconds. */
  duration: number;
  title?: string;
  imageModel: string;
  videoModel: string;
}

/** Elements a written board starts with at most (the person may add more, up to STORY_ELEMENTS_MAX). */
export const WRITTEN_ELEMENTS_MAX = 8;
/** Of those, at most this many of each kind on a first pass; left-over room is filled in order of mention. */
const KIND_SHARE: Readonly<Record<StoryElementKind, number>> = { character: 4, place: 2, object: 2 };
const KIND_ORDER: readonly StoryElementKind[] = ['character', 'place', 'object'];

const PERSON_NOUNS = [
  'girl', 'boy', 'woman', 'man', 'child', 'kid', 'baby', 'teenager', 'mother', 'father', 'mom', 'dad', 'grandmother',
  'grandfather', 'grandma', 'grandpa', 'daughter', 'son', 'sister', 'brother', 'king', 'queen', 'prince', 'princess',
  'knight', 'wizard', 'witch', 'robot', 'android', 'astronaut', 'detective', 'pilot', 'sailor', 'fisherman',
  'fisherwoman', 'farmer', 'soldier', 'hero', 'heroine', 'stranger', 'friend', 'teacher', 'student', 'doctor',
  'scientist', 'captain', 'explorer', 'traveller', 'traveler', 'musician', 'dancer', 'chef', 'baker', 'painter',
  'artist', 'writer', 'inventor', 'thief', 'pirate', 'ninja', 'samurai', 'warrior', 'monk', 'nurse', 'police officer',
  'keeper', 'lighthouse keeper', 'shopkeeper', 'old man', 'old woman', 'giant', 'elf', 'dwarf', 'fairy', 'mermaid',
  'ghost', 'alien', 'monster', 'creature', 'dragon', 'fox', 'dog', 'puppy', 'cat', 'kitten', 'bird', 'owl', 'crow',
  'wolf', 'bear', 'horse', 'rabbit', 'bunny', 'whale', 'dolphin', 'fish', 'mouse', 'lion', 'tiger', 'elephant',
  'deer', 'squirrel', 'turtle', 'frog', 'penguin', 'monkey', 'butterfly', 'bee', 'unicorn',
];
const PLACE_NOUNS = [
  'forest', 'woods', 'jungle', 'lighthouse', 'city', 'town', 'village', 'castle', 'house', 'cottage', 'cabin',
  'room', 'bedroom', 'kitchen', 'attic', 'basement', 'beach', 'shore', 'coast', 'sea', 'ocean', 'lake', 'river',
  'mountain', 'mountains', 'hill', 'valley', 'canyon', 'cliff', 'desert', 'island', 'street', 'road', 'alley',
  'rooftop', 'bridge', 'tunnel', 'station', 'harbour', 'harbor', 'port', 'market', 'school', 'classroom', 'library',
  'garden', 'park', 'meadow', 'field', 'farm', 'cave', 'space', 'planet', 'moon', 'tower', 'palace', 'temple',
  'church', 'cafe', 'café', 'restaurant', 'bar', 'office', 'laboratory', 'lab', 'shop', 'bakery', 'museum',
  'hospital', 'workshop', 'studio', 'stage', 'arena', 'stadium', 'reef', 'volcano', 'glacier', 'swamp', 'marsh',
  'kingdom', 'world', 'sky', 'mall', 'airport', 'subway', 'ruins',
];
const OBJECT_NOUNS = [
  'lantern', 'lamp', 'key', 'map', 'book', 'letter', 'sword', 'ring', 'box', 'chest', 'clock', 'watch', 'phone',
  'camera', 'car', 'bike', 'bicycle', 'boat', 'ship', 'train', 'balloon', 'kite', 'umbrella', 'guitar', 'violin',
  'piano', 'flower', 'rose', 'crown', 'mask', 'bottle', 'cup', 'hat', 'coat', 'scarf', 'bag', 'backpack', 'ball',
  'toy', 'doll', 'shell', 'stone', 'crystal', 'gem', 'egg', 'feather', 'candle', 'torch', 'telescope', 'compass',
  'mirror', 'painting', 'photo', 'photograph', 'ticket', 'coin', 'treasure', 'cake', 'apple', 'radio', 'computer',
  'rocket', 'spaceship', 'plane', 'airplane', 'shield', 'wand', 'potion', 'scroll', 'necklace', 'seed', 'star',
];

/** Capitalised words that are not names (sentence openers, pronouns, time words). */
const NOT_NAMES = new Set(
  (
    'the a an one two three in on at to into onto from of for by with without under over inside outside near across ' +
    'through when then after before as but and or so suddenly meanwhile later finally soon there here it he she they ' +
    'we i you his her their its our my your this that these those every each once while all some no yes now today ' +
    'tomorrow tonight yesterday eventually together alone everyone nobody someone somewhere nothing everything long ' +
    'deep far high until because if what where who why how years days night morning evening story film rain snow ' +
    'wind fog mist storm thunder light darkness dark silence time life love dawn dusk sunrise sunset spring summer ' +
    'autumn winter fall music'
  ).split(' '),
);
const DETERMINERS = new Set(['a', 'an', 'the', 'his', 'her', 'their', 'its', 'my', 'our', 'your', 'this', 'that', 'one', 'some']);
const PLACE_PREPOSITIONS = new Set(['in', 'at', 'into', 'near', 'across', 'through', 'towards', 'toward', 'inside']);
const PRONOUNS = /\b(he|she|they|him|her|them|his|their|hers|theirs)\b/i;
const MOTION_WORDS = /\b(run|runs|running|ran|chase|chases|chasing|chased|fly|flies|flying|flew|walk|walks|walking|walked|race|races|racing|follow|follows|following|followed|sail|sails|sailing|climb|climbs|climbing|flee|flees|fleeing|ride|rides|riding|swim|swims|swimming|drive|drives|driving)\b/i;

interface Candidate {
  kind: StoryElementKind;
  name: string;
  description: string;
  /** Lower-case words or phrases that mean it in a scene's text. */
  terms: string[];
  firstMention: number;
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const withStop = (text: string): string => (/[.!?…]["'”’)]?$/.test(text) ? text : `${text}.`);

/** The idea's sentences; a sentence without a final stop still counts. */
function sentencesOf(idea: string): string[] {
  return idea
    .replace(/\s*\n+\s*/g, '\n')
    .split(/(?<=[.!?…])\s+|\n/)
    .map((sentence) => sentence.trim().replace(/\s+/g, ' '))
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

/** Where a sentence can be cut into two scenes: each side must keep at least three words. */
const CLAUSE_BREAKS = /;\s+|:\s+|,\s+(?=(?:and|then|but|while|until|when|as|so)\b)|,?\s+(?:and\s+)?(?=(?:then|but|while|until|meanwhile)\b)/gi;

function splitClauses(sentence: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (const match of sentence.matchAll(CLAUSE_BREAKS)) {
    const end = match.index ?? 0;
    const before = sentence.slice(start, end).trim();
    const after = sentence.slice(end + match[0].length).trim();
    if (before.split(' ').length < 3 || after.split(' ').length < 3) continue;
    parts.push(before);
    start = end + match[0].length;
  }
  parts.push(sentence.slice(start).trim());
  return parts.map((part) => withStop(capitalise(part.replace(/[,;:]+$/, ''))));
}

/** Cuts the longest units into clauses until there are `target` units or nothing more can be cut. */
function splitUntil(units: string[], target: number): string[] {
  const result = [...units];
  const unsplittable = new Set<string>();
  while (result.length < target) {
    let longest = -1;
    for (const [index, unit] of result.entries()) {
      if (unsplittable.has(unit)) continue;
      if (longest < 0 || unit.length > (result[longest] ?? '').length) longest = index;
    }
    if (longest < 0) break;
    const unit = result[longest] ?? '';
    const clauses = splitClauses(unit);
    if (clauses.length < 2) {
      unsplittable.add(unit);
      continue;
    }
    const room = target - result.length + 1;
    // Never more pieces than needed: extra clauses stay joined to the last one.
    const pieces = clauses.length <= room ? clauses : [...clauses.slice(0, room - 1), clauses.slice(room - 1).join(' ')];
    result.splice(longest, 1, ...pieces);
  }
  return result;
}

/** Joins consecutive units into `target` groups of about equal length. */
function groupInto(units: readonly string[], target: number): string[] {
  if (units.length <= target) return [...units];
  const total = units.reduce((sum, unit) => sum + unit.length, 0);
  const groups: string[] = [];
  let current: string[] = [];
  let length = 0;
  let used = 0;
  for (const [index, unit] of units.entries()) {
    current.push(unit);
    length += unit.length;
    const groupsLeft = target - groups.length - 1;
    const unitsLeft = units.length - index - 1;
    const reachedShare = length + used >= ((groups.length + 1) * total) / target;
    if (groupsLeft > 0 && (reachedShare || unitsLeft === groupsLeft)) {
      groups.push(current.join(' '));
      used += length;
      current = [];
      length = 0;
    }
  }
  if (current.length > 0) groups.push(current.join(' '));
  return groups;
}

function singular(word: string): string[] {
  const forms = [word];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s')) forms.push(word.slice(0, -1));
  if (word === 'men') forms.push('man');
  if (word === 'women') forms.push('woman');
  if (word === 'children') forms.push('child');
  if (word === 'wolves') forms.push('wolf');
  return forms;
}

const NOUN_KINDS = new Map<string, StoryElementKind>([
  ...PLACE_NOUNS.map((noun) => [noun, 'place'] as const),
  ...OBJECT_NOUNS.map((noun) => [noun, 'object'] as const),
  ...PERSON_NOUNS.map((noun) => [noun, 'character'] as const),
]);

interface Token {
  word: string;
  lower: string;
  index: number;
  sentenceStart: boolean;
}

function tokensOf(idea: string): Token[] {
  const tokens: Token[] = [];
  let sentenceStart = true;
  for (const match of idea.matchAll(/[\p{L}\p{N}'’-]+|[.!?…\n]/gu)) {
    const word = match[0];
    if (/^[.!?…\n]$/.test(word)) {
      sentenceStart = true;
      continue;
    }
    tokens.push({ word, lower: word.toLowerCase().replace(/[’']s$/, ''), index: match.index ?? 0, sentenceStart });
    sentenceStart = false;
  }
  return tokens;
}

/** "a small red fox" → "small red fox": the words between the determiner and the noun. */
function nounPhrase(tokens: readonly Token[], at: number, length: number): string {
  const words = tokens.slice(at, at + length).map((token) => token.lower);
  for (let back = 1; back <= 3 && at - back >= 0; back += 1) {
    const token = tokens[at - back];
    if (!token || token.sentenceStart) break;
    if (DETERMINERS.has(token.lower)) return [...tokens.slice(at - back + 1, at).map((item) => item.lower), ...words].join(' ');
  }
  return words.join(' ');
}

function extractCandidates(idea: string): Candidate[] {
  const tokens = tokensOf(idea);
  const found = new Map<string, Candidate>();
  const add = (key: string, candidate: Omit<Candidate, 'firstMention'>, at: number) => {
    const existing = found.get(key);
    if (existing) {
      for (const term of candidate.terms) if (!existing.terms.includes(term)) existing.terms.push(term);
      return;
    }
    found.set(key, { ...candidate, firstMention: at });
  };
  const skip = new Set<number>();
  const lowerWords = new Set(tokens.filter((token) => !/^\p{Lu}/u.test(token.word)).map((token) => token.lower));

  // Names: runs of capitalised words that are not sentence openers or function words.
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as Token;
    if (!/^\p{Lu}/u.test(token.word) || NOT_NAMES.has(token.lower) || NOUN_KINDS.has(token.lower)) continue;
    // A sentence's first word is a name only if it looks like one: not an adverb or a verb, never written in lower case.
    if (token.sentenceStart && (/(ly|ing|ed)$/.test(token.lower) || lowerWords.has(token.lower))) continue;
    let end = index + 1;
    while (end < tokens.length && /^\p{Lu}/u.test(tokens[end]?.word ?? '') && !tokens[end]?.sentenceStart && !NOT_NAMES.has(tokens[end]?.lower ?? '')) end += 1;
    const words = tokens.slice(index, end).map((item) => item.word.replace(/[’']s$/, ''));
    const name = words.join(' ');
    const previous = tokens[index - 1];
    const kind: StoryElementKind = previous && !token.sentenceStart && PLACE_PREPOSITIONS.has(previous.lower) ? 'place' : 'character';
    // "Mara, a young fisherwoman," — the apposition describes her.
    const apposition = new RegExp(`${escapeRegExp(name)},\\s+((?:a|an|the)\\s+[^,.;!?]{1,80})[,.;!?]`, 'u').exec(idea)?.[1] ?? '';
    if (apposition) {
      const start = idea.indexOf(apposition, token.index);
      for (const [position, item] of tokens.entries()) if (item.index >= start && item.index < start + apposition.length) skip.add(position);
    }
    // "Captain Rhea" is "Rhea" later on.
    const last = words.length > 1 ? (words[words.length - 1] ?? '').toLowerCase() : '';
    add(`name:${name.toLowerCase()}`, { kind, name, description: apposition, terms: last ? [name.toLowerCase(), last] : [name.toLowerCase()] }, token.index);
    for (let position = index; position < end; position += 1) skip.add(position);
    index = end - 1;
  }

  // Nouns: two-word nouns first ("old man", "lighthouse keeper"), then single words and plurals.
  for (let index = 0; index < tokens.length; index += 1) {
    if (skip.has(index)) continue;
    const token = tokens[index] as Token;
    const pair = `${token.lower} ${tokens[index + 1]?.lower ?? ''}`;
    let noun: string | undefined;
    let length = 1;
    if (NOUN_KINDS.has(pair) && !skip.has(index + 1)) {
      noun = pair;
      length = 2;
    } else {
      noun = singular(token.lower).find((form) => NOUN_KINDS.has(form));
    }
    if (!noun) continue;
    // "The lighthouse keeper": the keeper, not the lighthouse.
    if (length === 1 && NOUN_KINDS.has(`${token.lower} ${tokens[index + 1]?.lower ?? ''}`)) continue;
    const kind = NOUN_KINDS.get(noun) as StoryElementKind;
    const phrase = nounPhrase(tokens, index, length);
    const described = phrase.split(' ').length > length ? phrase : '';
    add(`noun:${noun}`, { kind, name: `The ${noun}`, description: described, terms: [noun, token.lower] }, token.index);
    index += length - 1;
  }
  return [...found.values()].sort((a, b) => a.firstMention - b.firstMention);
}

/** At most WRITTEN_ELEMENTS_MAX, each kind its share first, in the order the idea mentions them; always a character and a place. */
function chooseElements(idea: string, firstSentence: string): Candidate[] {
  const candidates = extractCandidates(idea);
  if (!candidates.some((candidate) => candidate.kind === 'character')) {
    candidates.unshift({ kind: 'character', name: 'The hero', description: 'the main character of the story', terms: ['hero'], firstMention: -1 });
  }
  if (!candidates.some((candidate) => candidate.kind === 'place')) {
    candidates.push({ kind: 'place', name: 'The setting', description: `where it happens: ${firstSentence}`, terms: ['setting'], firstMention: Number.MAX_SAFE_INTEGER });
  }
  const chosen = new Set<Candidate>();
  for (const kind of KIND_ORDER) {
    for (const candidate of candidates.filter((item) => item.kind === kind).slice(0, KIND_SHARE[kind])) chosen.add(candidate);
  }
  for (const candidate of candidates) if (chosen.size < WRITTEN_ELEMENTS_MAX) chosen.add(candidate);
  return KIND_ORDER.flatMap((kind) => candidates.filter((candidate) => candidate.kind === kind && chosen.has(candidate)));
}

const mentions = (text: string, candidate: Candidate): boolean =>
  candidate.terms.some((term) => new RegExp(`(^|[^\\p{L}])${escapeRegExp(term)}(e?s)?($|[^\\p{L}])`, 'iu').test(text));

/** "The fox" → "the fox" inside a sentence; names keep their capitals. */
const inSentence = (name: string): string => name.replace(/^The /, 'the ');

/** Scenes the idea is too short for: an opening view, a closing one, and close-ups between. */
function padBeats(units: string[], target: number, character: Candidate, place: Candidate, lastPlace: Candidate, object: Candidate | undefined): string[] {
  const result = [...units];
  const who = inSentence(character.name);
  const where = inSentence(place.name);
  const middle = [
    `Close on ${who}, taking it all in.`,
    object ? `A closer look at ${inSentence(object.name)}.` : `${capitalise(where)} around ${who}, a moment later.`,
    `${capitalise(who)} looks around ${where}.`,
  ];
  let added = 0;
  while (result.length < target) {
    if (added === 0) result.unshift(`${capitalise(where)}, where the story begins.`);
    else if (added === 1) result.push(`The story ends with ${who} at ${inSentence(lastPlace.name)}.`);
    else {
      // Between the idea's own scenes, spread out: after the 1st, 3rd, 5th… of them.
      const beat = middle[(added - 2) % middle.length] as string;
      const position = Math.min(result.length - 1, 1 + (added - 2) * 2 + 1);
      result.splice(position, 0, beat);
    }
    added += 1;
  }
  return result;
}

/** Lengths of `count` scenes adding up to the film's length, each within the scene limits. */
function sceneDurations(count: number, total: number): number[] {
  const base = Math.floor(total / count);
  const extra = total - base * count;
  return Array.from({ length: count }, (_, index) =>
    Math.min(STORY_SCENE_DURATION.max, Math.max(STORY_SCENE_DURATION.min, base + (index < extra ? 1 : 0))),
  );
}

/** Wide to open and close the film, medium and close-up between; movement gets a tracking shot. */
function shotOf(index: number, count: number, text: string): StoryShot {
  if (index === 0) return 'wide';
  if (index === count - 1) return count >= 3 ? 'aerial' : 'wide';
  const cycle: readonly StoryShot[] = ['wide', 'medium', 'close-up'];
  const shot = cycle[index % cycle.length] as StoryShot;
  return shot === 'medium' && MOTION_WORDS.test(text) ? 'tracking' : shot;
}

function titleOf(idea: string, elements: readonly Candidate[], firstSentence: string): string {
  const character = elements.find((element) => element.kind === 'character' && element.firstMention >= 0);
  const object = elements.find((element) => element.kind === 'object');
  const place = elements.find((element) => element.kind === 'place' && element.firstMention < Number.MAX_SAFE_INTEGER);
  if (character && object) return clipText(`${character.name} and ${inSentence(object.name)}`, STORY_TITLE_MAX);
  if (character && place) return clipText(`${character.name} of ${inSentence(place.name)}`, STORY_TITLE_MAX);
  const words = (firstSentence || idea).replace(/[.!?…]+$/, '').split(' ');
  return clipText(capitalise(words.slice(0, 8).join(' ')), STORY_TITLE_MAX);
}

/** The storyboard an idea starts with. */
export function writeStoryboard(input: StoryboardInput): Storyboard {
  const idea = input.idea.trim();
  const duration = Math.max(STORY_SCENE_DURATION.min, Math.round(Number.isFinite(input.duration) ? input.duration : STORY_SCENE_DURATION.default));
  const target = Math.min(
    STORY_SCENES.max,
    Math.max(STORY_SCENES.min, Math.round(duration / STORY_SCENE_DURATION.default), Math.ceil(duration / STORY_SCENE_DURATION.max)),
  );
  const sentences = sentencesOf(idea).map((sentence) => withStop(capitalise(sentence)));
  const firstSentence = sentences[0] ?? idea;
  const chosen = chooseElements(idea, firstSentence);
  const mainCharacter = chosen.find((element) => element.kind === 'character') as Candidate;
  const mainPlace = chosen.find((element) => element.kind === 'place') as Candidate;
  const mainObject = chosen.find((element) => element.kind === 'object');
  const lowerIdea = idea.toLowerCase();
  const lastMention = (candidate: Candidate) => Math.max(...candidate.terms.map((term) => lowerIdea.lastIndexOf(term)));
  const lastPlace = chosen.filter((element) => element.kind === 'place').reduce((latest, place) => (lastMention(place) > lastMention(latest) ? place : latest), mainPlace);

  const units = splitUntil(sentences.length > 0 ? sentences : [withStop(capitalise(idea))], target);
  const texts = padBeats(groupInto(units, target), target, mainCharacter, mainPlace, lastPlace, mainObject).map((text) => clipText(text, STORY_SCENE_TEXT_MAX));

  const elements: StoryElement[] = chosen.map((candidate, index) => ({
    id: `el-${index + 1}`,
    kind: candidate.kind,
    name: clipText(candidate.name, STORY_ELEMENT_NAME_MAX),
    description: clipText(candidate.description, STORY_ELEMENT_DESCRIPTION_MAX),
    image: null,
  }));
  const idOf = (candidate: Candidate): string => elements[chosen.indexOf(candidate)]?.id ?? '';

  const durations = sceneDurations(texts.length, duration);
  let lastPlaces: Candidate[] = [mainPlace];
  let lastCharacters: Candidate[] = [mainCharacter];
  const scenes: StoryScene[] = texts.map((text, index) => {
    const named = chosen.filter((candidate) => mentions(text, candidate));
    const places = named.filter((candidate) => candidate.kind === 'place');
    const characters = named.filter((candidate) => candidate.kind === 'character');
    const present = new Set(named);
    // A scene happens somewhere: where the last one did, unless it says otherwise.
    if (places.length === 0) for (const place of lastPlaces) present.add(place);
    // "She runs", or a scene naming no one and nowhere: the people of the last scene are still there.
    if (named.length === 0 || (characters.length === 0 && places.length === 0) || PRONOUNS.test(text)) for (const character of lastCharacters) present.add(character);
    const inScene = chosen.filter((candidate) => present.has(candidate));
    lastPlaces = inScene.filter((candidate) => candidate.kind === 'place');
    const nowCharacters = inScene.filter((candidate) => candidate.kind === 'character');
    if (nowCharacters.length > 0) lastCharacters = nowCharacters;
    return {
      id: `scene-${index + 1}`,
      text,
      shot: shotOf(index, texts.length, text),
      duration: durations[index] ?? STORY_SCENE_DURATION.default,
      element_ids: inScene.map(idOf),
      image: null,
      video: null,
    };
  });

  const narration = scenesNarration(scenes);
  const title = clipText((input.title ?? '').trim() || titleOf(idea, chosen, firstSentence), STORY_TITLE_MAX);
  return storyboardSchema.parse({
    title,
    image_model: input.imageModel,
    video_model: input.videoModel,
    scenes,
    elements,
    audio: { kind: 'speech', text: narration, voice: DEFAULT_VOICE, track: null },
  });
}
