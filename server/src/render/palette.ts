import { between, pick, type Random } from './seeded-random.ts';

/**
 * Colours for the generated pictures. A prompt's words pick a mood palette ("sunset" → warm,
 * "ocean" → blues); a prompt without such words gets a harmonious palette drawn from its hash.
 */

/** Five colours, darkest-ish first: background stops, then accents. */
export type Palette = readonly [string, string, string, string, string];

const MOOD_PALETTES: readonly { words: readonly string[]; palette: Palette }[] = [
  { words: ['sunset', 'sunrise', 'dusk', 'autumn', 'warm', 'golden', 'fall'], palette: ['#2b1b3d', '#c2410c', '#f97316', '#fbbf24', '#fde68a'] },
  { words: ['fire', 'flame', 'lava', 'volcano', 'red', 'blood', 'dragon'], palette: ['#1c0a0a', '#7f1d1d', '#dc2626', '#f97316', '#fde047'] },
  { words: ['ocean', 'sea', 'water', 'beach', 'wave', 'lake', 'river', 'blue', 'underwater'], palette: ['#082f49', '#075985', '#0ea5e9', '#67e8f9', '#f0f9ff'] },
  { words: ['forest', 'jungle', 'tree', 'garden', 'green', 'nature', 'leaf', 'meadow', 'spring'], palette: ['#052e16', '#166534', '#22c55e', '#a3e635', '#fef9c3'] },
  { words: ['night', 'space', 'star', 'galaxy', 'moon', 'dark', 'cosmic', 'midnight'], palette: ['#020617', '#1e1b4b', '#4338ca', '#a78bfa', '#e0e7ff'] },
  { words: ['snow', 'winter', 'ice', 'frozen', 'white', 'arctic', 'cloud'], palette: ['#334155', '#94a3b8', '#cbd5e1', '#e0f2fe', '#ffffff'] },
  { words: ['desert', 'sand', 'dune', 'canyon', 'earth', 'clay'], palette: ['#451a03', '#92400e', '#d97706', '#fcd34d', '#fef3c7'] },
  { words: ['neon', 'cyberpunk', 'synthwave', 'retro', 'disco', 'party', 'vaporwave'], palette: ['#0f0520', '#6d28d9', '#db2777', '#22d3ee', '#f0abfc'] },
  { words: ['flower', 'rose', 'pink', 'love', 'candy', 'cherry', 'blossom'], palette: ['#4a044e', '#be185d', '#f472b6', '#fbcfe8', '#fff1f2'] },
  { words: ['gold', 'royal', 'luxury', 'treasure'], palette: ['#1c1917', '#78350f', '#b45309', '#facc15', '#fef9c3'] },
  { words: ['city', 'urban', 'street', 'metal', 'robot', 'steel', 'industrial'], palette: ['#0f172a', '#334155', '#64748b', '#f59e0b', '#e2e8f0'] },
];

/** The words of a prompt, lower case, letters and digits only. */
export function promptWords(prompt: string): string[] {
  return prompt.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The prompt without the words of a negative prompt (issue 21 item 7), as the local engine honours
 * one: a word the picture must not show no longer drives it — its mood palette, its scene (a
 * horizon, a figure, night stars), its effects (blur, monochrome…) and the caption. Whole words,
 * any case, a plural too ("stars" when "star" is excluded, and the other way round).
 */
export function promptWithout(prompt: string, negativePrompt: string): string {
  const excluded = new Set(promptWords(negativePrompt));
  if (excluded.size === 0) return prompt;
  const banned = (word: string): boolean => {
    const lower = word.toLowerCase();
    return excluded.has(lower) || excluded.has(`${lower}s`) || (lower.endsWith('s') && excluded.has(lower.slice(0, -1)));
  };
  return prompt
    .replace(/[\p{L}\p{N}]+/gu, (word) => (banned(word) ? '' : word))
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

function moodPalette(prompt: string): Palette | null {
  const words = new Set(promptWords(prompt));
  for (const mood of MOOD_PALETTES) {
    // "snowy", "flowers", "warmth" count; short words must match whole ("sea" is not "seal").
    const matches = (word: string) => words.has(word) || words.has(`${word}s`) || (word.length >= 4 && [...words].some((found) => found.startsWith(word)));
    if (mood.words.some(matches)) return mood.palette;
  }
  return null;
}

export function hslToHex(hue: number, saturation: number, lightness: number): string {
  const h = ((hue % 360) + 360) % 360;
  const s = Math.max(0, Math.min(1, saturation));
  const l = Math.max(0, Math.min(1, lightness));
  const chroma = (1 - Math.abs(2 * l - 1)) * s;
  const x = chroma * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - chroma / 2;
  const [r, g, b] =
    h < 60 ? [chroma, x, 0] : h < 120 ? [x, chroma, 0] : h < 180 ? [0, chroma, x] : h < 240 ? [0, x, chroma] : h < 300 ? [x, 0, chroma] : [chroma, 0, x];
  const channel = (value: number) => Math.round((value + m) * 255).toString(16).padStart(2, '0');
  return `#${channel(r)}${channel(g)}${channel(b)}`;
}

/** The prompt's mood palette, or one built around a random hue (analogous or complementary). */
export function choosePalette(prompt: string, random: Random): Palette {
  const mood = moodPalette(prompt);
  if (mood) return mood;
  const hue = between(random, 0, 360);
  const offset = pick(random, [30, 150, 180, 210]);
  return [
    hslToHex(hue, 0.55, 0.12),
    hslToHex(hue, 0.6, 0.35),
    hslToHex(hue + offset / 3, 0.7, 0.55),
    hslToHex(hue + offset, 0.75, 0.6),
    hslToHex(hue + offset, 0.5, 0.88),
  ];
}
