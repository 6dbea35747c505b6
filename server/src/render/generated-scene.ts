import { choosePalette, promptWords, type Palette } from './palette.ts';
import { fitPixelText, pixelTextSvg, pixelTextWidth, PIXEL_TEXT_HEIGHT } from './pixel-font.ts';
import { between, integerBetween, pick, seededRandom, type Random } from './seeded-random.ts';
import type { Size } from './canvas-size.ts';

/**
 * The text-to-image stand-in: an SVG composition whose palette, layout and shapes all come from
 * the prompt, model and seed. Landscape words draw a horizon with ridges and a sun, people words a
 * figure, anything else an abstract arrangement; the model picks the drawing style.
 */

type SceneStyle = 'ridges' | 'waves' | 'geometric' | 'bokeh';

const LANDSCAPE_WORDS = ['landscape', 'mountain', 'mountains', 'hill', 'hills', 'valley', 'sunset', 'sunrise', 'desert', 'field', 'horizon', 'ocean', 'sea', 'beach', 'lake', 'forest'];
const FIGURE_WORDS = ['portrait', 'person', 'woman', 'man', 'girl', 'boy', 'face', 'people', 'child', 'astronaut', 'knight', 'wizard', 'warrior', 'character', 'selfie'];
const NIGHT_WORDS = ['night', 'moon', 'space', 'star', 'stars', 'galaxy', 'midnight'];

function styleFor(model: string, words: readonly string[], random: Random): SceneStyle {
  if (words.some((word) => ['ocean', 'sea', 'wave', 'waves', 'water', 'river'].includes(word))) return 'waves';
  if (words.some((word) => LANDSCAPE_WORDS.includes(word))) return 'ridges';
  // Each model leans on its own style so two models give visibly different pictures.
  const styles: readonly SceneStyle[] = ['ridges', 'waves', 'geometric', 'bokeh'];
  const lean = [...model].reduce((sum, character) => sum + character.charCodeAt(0), 0) % styles.length;
  return random() < 0.7 ? (styles[lean] as SceneStyle) : pick(random, styles);
}

const round = (value: number) => Math.round(value * 10) / 10;

function ridgePath(size: Size, baseline: number, amplitude: number, smooth: boolean, random: Random): string {
  const steps = integerBetween(random, 5, 10);
  const points: [number, number][] = [];
  for (let index = 0; index <= steps; index += 1) {
    points.push([round((size.width * index) / steps), round(baseline - between(random, 0, amplitude))]);
  }
  const [first, ...rest] = points;
  let line = `M0 ${size.height}L${first?.[0] ?? 0} ${first?.[1] ?? baseline}`;
  let previous = first ?? [0, baseline];
  for (const point of rest) {
    line += smooth
      ? `C${round((previous[0] + point[0]) / 2)} ${previous[1]} ${round((previous[0] + point[0]) / 2)} ${point[1]} ${point[0]} ${point[1]}`
      : `L${point[0]} ${point[1]}`;
    previous = point;
  }
  return `${line}L${size.width} ${size.height}Z`;
}

function shapesSvg(size: Size, palette: Palette, random: Random, count: number, blurred: boolean): string {
  const shortSide = Math.min(size.width, size.height);
  const shapes: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const x = round(between(random, 0, size.width));
    const y = round(between(random, 0, size.height));
    const radius = round(between(random, shortSide * 0.03, shortSide * (blurred ? 0.16 : 0.22)));
    const fill = pick(random, palette.slice(2));
    const opacity = round(between(random, 0.15, blurred ? 0.55 : 0.7) * 100) / 100;
    const kind = blurred ? 'circle' : pick(random, ['circle', 'square', 'triangle'] as const);
    const filter = blurred ? ' filter="url(#soft)"' : '';
    if (kind === 'circle') {
      shapes.push(`<circle cx="${x}" cy="${y}" r="${radius}" fill="${fill}" fill-opacity="${opacity}"${filter}/>`);
    } else if (kind === 'square') {
      const angle = round(between(random, 0, 90));
      shapes.push(
        `<rect x="${round(x - radius)}" y="${round(y - radius)}" width="${round(radius * 2)}" height="${round(radius * 2)}" rx="${round(radius * 0.2)}" fill="${fill}" fill-opacity="${opacity}" transform="rotate(${angle} ${x} ${y})"/>`,
      );
    } else {
      shapes.push(
        `<path d="M${x} ${round(y - radius)}L${round(x + radius)} ${round(y + radius)}L${round(x - radius)} ${round(y + radius)}Z" fill="${fill}" fill-opacity="${opacity}"/>`,
      );
    }
  }
  return shapes.join('');
}

function figureSvg(size: Size, palette: Palette, random: Random): string {
  const centreX = round(size.width * between(random, 0.38, 0.62));
  const headRadius = round(Math.min(size.width, size.height) * 0.13);
  const headY = round(size.height * 0.42);
  const shoulderY = round(headY + headRadius * 1.6);
  const shoulderHalf = round(headRadius * 2.4);
  return (
    `<circle cx="${centreX}" cy="${headY}" r="${headRadius}" fill="${palette[0]}" fill-opacity="0.85"/>` +
    `<path d="M${round(centreX - shoulderHalf)} ${size.height}C${round(centreX - shoulderHalf)} ${shoulderY} ${round(centreX + shoulderHalf)} ${shoulderY} ${round(centreX + shoulderHalf)} ${size.height}Z" fill="${palette[0]}" fill-opacity="0.85"/>`
  );
}

interface SceneOptions {
  size: Size;
  prompt: string;
  model: string;
  seed: string;
  /** Writes the prompt in a band along the bottom. */
  caption: boolean;
}

export function sceneSvg({ size, prompt, model, seed, caption }: SceneOptions): string {
  const random = seededRandom('scene', prompt, model, seed);
  const words = promptWords(prompt);
  const palette = choosePalette(prompt, random);
  const style = styleFor(model, words, random);
  const night = words.some((word) => NIGHT_WORDS.includes(word));
  const { width, height } = size;
  const shortSide = Math.min(width, height);
  const angle = round(between(random, 0, 360));
  const parts: string[] = [
    `<defs>`,
    `<linearGradient id="sky" gradientTransform="rotate(${angle} 0.5 0.5)"><stop offset="0" stop-color="${palette[0]}"/><stop offset="0.55" stop-color="${palette[1]}"/><stop offset="1" stop-color="${palette[2]}"/></linearGradient>`,
    `<radialGradient id="glow"><stop offset="0" stop-color="${palette[4]}"/><stop offset="0.35" stop-color="${palette[4]}" stop-opacity="0.9"/><stop offset="1" stop-color="${palette[3]}" stop-opacity="0"/></radialGradient>`,
    `<filter id="soft" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${round(shortSide * 0.02)}"/></filter>`,
    `</defs>`,
    `<rect width="${width}" height="${height}" fill="url(#sky)"/>`,
  ];
  if (night) {
    const starCount = integerBetween(random, 40, 90);
    for (let index = 0; index < starCount; index += 1) {
      parts.push(`<circle cx="${round(between(random, 0, width))}" cy="${round(between(random, 0, height * 0.6))}" r="${round(between(random, 0.6, 2.2))}" fill="#ffffff" fill-opacity="${round(between(random, 0.4, 1) * 100) / 100}"/>`);
    }
  }
  const sunRadius = round(shortSide * between(random, 0.12, 0.22));
  parts.push(`<circle cx="${round(width * between(random, 0.2, 0.8))}" cy="${round(height * between(random, 0.18, 0.42))}" r="${round(sunRadius * 2.2)}" fill="url(#glow)"/>`);
  if (style === 'ridges' || style === 'waves') {
    const layers = integerBetween(random, 2, 4);
    for (let layer = 0; layer < layers; layer += 1) {
      const baseline = height * (0.5 + (0.4 * (layer + 1)) / (layers + 1));
      const colour = palette[Math.max(0, 3 - layer)] ?? palette[0];
      parts.push(`<path d="${ridgePath(size, baseline, height * 0.22, style === 'waves', random)}" fill="${colour}" fill-opacity="${round((0.55 + layer * 0.15) * 100) / 100}"/>`);
    }
    parts.push(shapesSvg(size, palette, random, integerBetween(random, 3, 7), true));
  } else {
    parts.push(shapesSvg(size, palette, random, integerBetween(random, 8, 18), style === 'bokeh'));
  }
  if (words.some((word) => FIGURE_WORDS.includes(word))) parts.push(figureSvg(size, palette, random));
  if (caption && prompt.trim() !== '') {
    const scale = Math.max(2, Math.round(shortSide / 256));
    const margin = scale * 4;
    // The caption keeps to the left two thirds: the bottom-right corner is the logo's (SPEC §6).
    const text = fitPixelText(prompt, Math.floor((width * 0.68 - margin * 4) / scale));
    const bandHeight = PIXEL_TEXT_HEIGHT * scale + margin * 2;
    const textWidth = pixelTextWidth(text) * scale;
    parts.push(`<rect x="${margin}" y="${height - bandHeight - margin}" width="${textWidth + margin * 2}" height="${bandHeight}" rx="${scale * 2}" fill="#000000" fill-opacity="0.45"/>`);
    parts.push(pixelTextSvg(text, { x: margin * 2, y: height - bandHeight, scale, fill: '#ffffff' }));
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}

/** A plain two-colour gradient from the prompt's palette (a new background behind a subject). */
export function gradientSvg(size: Size, prompt: string, seed: string): string {
  const random = seededRandom('gradient', prompt, seed);
  const palette = choosePalette(prompt, random);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${palette[3]}"/><stop offset="1" stop-color="${palette[1]}"/></linearGradient></defs><rect width="${size.width}" height="${size.height}" fill="url(#g)"/></svg>`;
}

export function promptPalette(prompt: string, seed: string): Palette {
  return choosePalette(prompt, seededRandom('palette', prompt, seed));
}
