import { escapeMarkup } from '../lib/escape-markup.ts';

/**
 * A 5×7 pixel font drawn as SVG squares. The engine writes captions and the "Kinora" watermark
 * with it instead of SVG <text>: librsvg would pick whatever fonts the machine has (or none), so
 * text drawn that way could differ between machines and break the same-request-same-bytes rule.
 */

const GLYPH_WIDTH = 5;
const GLYPH_HEIGHT = 7;
/** One empty column between letters. */
const ADVANCE = GLYPH_WIDTH + 1;

// Rows top to bottom; '#' is ink.
const GLYPHS: Readonly<Record<string, string>> = {
  A: '.###.|#...#|#...#|#####|#...#|#...#|#...#',
  B: '####.|#...#|#...#|####.|#...#|#...#|####.',
  C: '.###.|#...#|#....|#....|#....|#...#|.###.',
  D: '####.|#...#|#...#|#...#|#...#|#...#|####.',
  E: '#####|#....|#....|####.|#....|#....|#####',
  F: '#####|#....|#....|####.|#....|#....|#....',
  G: '.###.|#...#|#....|#.###|#...#|#...#|.####',
  H: '#...#|#...#|#...#|#####|#...#|#...#|#...#',
  I: '.###.|..#..|..#..|..#..|..#..|..#..|.###.',
  J: '..###|...#.|...#.|...#.|...#.|#..#.|.##..',
  K: '#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#',
  L: '#....|#....|#....|#....|#....|#....|#####',
  M: '#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#',
  N: '#...#|#...#|##..#|#.#.#|#..##|#...#|#...#',
  O: '.###.|#...#|#...#|#...#|#...#|#...#|.###.',
  P: '####.|#...#|#...#|####.|#....|#....|#....',
  Q: '.###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#',
  R: '####.|#...#|#...#|####.|#.#..|#..#.|#...#',
  S: '.####|#....|#....|.###.|....#|....#|####.',
  T: '#####|..#..|..#..|..#..|..#..|..#..|..#..',
  U: '#...#|#...#|#...#|#...#|#...#|#...#|.###.',
  V: '#...#|#...#|#...#|#...#|#...#|.#.#.|..#..',
  W: '#...#|#...#|#...#|#.#.#|#.#.#|#.#.#|.#.#.',
  X: '#...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#',
  Y: '#...#|#...#|.#.#.|..#..|..#..|..#..|..#..',
  Z: '#####|....#|...#.|..#..|.#...|#....|#####',
  '0': '.###.|#...#|#..##|#.#.#|##..#|#...#|.###.',
  '1': '..#..|.##..|..#..|..#..|..#..|..#..|.###.',
  '2': '.###.|#...#|....#|...#.|..#..|.#...|#####',
  '3': '#####|...#.|..#..|...#.|....#|#...#|.###.',
  '4': '...#.|..##.|.#.#.|#..#.|#####|...#.|...#.',
  '5': '#####|#....|####.|....#|....#|#...#|.###.',
  '6': '..##.|.#...|#....|####.|#...#|#...#|.###.',
  '7': '#####|....#|...#.|..#..|.#...|.#...|.#...',
  '8': '.###.|#...#|#...#|.###.|#...#|#...#|.###.',
  '9': '.###.|#...#|#...#|.####|....#|...#.|.##..',
  '.': '.....|.....|.....|.....|.....|.##..|.##..',
  ',': '.....|.....|.....|.....|.##..|..#..|.#...',
  '!': '..#..|..#..|..#..|..#..|..#..|.....|..#..',
  '?': '.###.|#...#|....#|...#.|..#..|.....|..#..',
  "'": '..#..|..#..|.#...|.....|.....|.....|.....',
  '"': '.#.#.|.#.#.|.....|.....|.....|.....|.....',
  '-': '.....|.....|.....|.###.|.....|.....|.....',
  '+': '.....|..#..|..#..|#####|..#..|..#..|.....',
  ':': '.....|.##..|.##..|.....|.##..|.##..|.....',
  ';': '.....|.##..|.##..|.....|.##..|..#..|.#...',
  '/': '.....|....#|...#.|..#..|.#...|#....|.....',
  '(': '...#.|..#..|.#...|.#...|.#...|..#..|...#.',
  ')': '.#...|..#..|...#.|...#.|...#.|..#..|.#...',
  '&': '.##..|#..#.|#.#..|.#...|#.#.#|#..#.|.##.#',
  '%': '##...|##..#|...#.|..#..|.#...|#..##|...##',
  '#': '.#.#.|.#.#.|#####|.#.#.|#####|.#.#.|.#.#.',
  '=': '.....|.....|#####|.....|#####|.....|.....',
};

/** Letters the font lacks are drawn as their unaccented capital, or left as a gap. */
function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase();
}

/** Width in font pixels (before scaling) of a line of text. */
export function pixelTextWidth(text: string): number {
  const length = [...normalise(text)].length;
  return length === 0 ? 0 : length * ADVANCE - 1;
}

export const PIXEL_TEXT_HEIGHT = GLYPH_HEIGHT;

/** Cuts text to fit `maxWidth` font pixels, ending with "..." when it was cut. */
export function fitPixelText(text: string, maxWidth: number): string {
  const characters = [...text.replace(/\s+/g, ' ').trim()];
  const maxCharacters = Math.floor((maxWidth + 1) / ADVANCE);
  if (characters.length <= maxCharacters) return characters.join('');
  return `${characters.slice(0, Math.max(0, maxCharacters - 3)).join('').trimEnd()}...`;
}

interface PixelTextOptions {
  x: number;
  y: number;
  /** Screen pixels per font pixel. */
  scale: number;
  fill: string;
  opacity?: number;
}

/** An SVG <path> drawing the text with its top-left corner at (x, y). */
export function pixelTextSvg(text: string, options: PixelTextOptions): string {
  const { x, y, scale, fill } = options;
  const commands: string[] = [];
  [...normalise(text)].forEach((character, index) => {
    const rows = GLYPHS[character]?.split('|');
    if (!rows) return;
    rows.forEach((row, rowIndex) => {
      for (let column = 0; column < row.length; column += 1) {
        if (row[column] !== '#') continue;
        const left = x + (index * ADVANCE + column) * scale;
        const top = y + rowIndex * scale;
        commands.push(`M${left} ${top}h${scale}v${scale}h${-scale}z`);
      }
    });
  });
  if (commands.length === 0) return '';
  const opacity = options.opacity === undefined ? '' : ` fill-opacity="${options.opacity}"`;
  return `<path d="${commands.join('')}" fill="${escapeMarkup(fill)}"${opacity} shape-rendering="crispEdges"/>`;
}
