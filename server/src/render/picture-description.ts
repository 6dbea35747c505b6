import { pictureToSharp, type Picture } from './picture-decode.ts';

/**
 * Image2Prompt's stand-in: a prompt written from what can be measured in the picture — its shape,
 * its dominant colours named in words, brightness, saturation and contrast.
 */

/** A colour name for an RGB value, from its hue, saturation and lightness. */
export function colourName(r: number, g: number, b: number): string {
  const max = Math.max(r, g, b) / 255;
  const min = Math.min(r, g, b) / 255;
  const lightness = (max + min) / 2;
  const chroma = max - min;
  const saturation = chroma === 0 ? 0 : chroma / (1 - Math.abs(2 * lightness - 1));
  if (lightness < 0.1) return 'black';
  if (lightness > 0.93 && saturation < 0.5) return 'white';
  if (saturation < 0.15 || chroma < 0.08) return lightness < 0.35 ? 'dark grey' : lightness > 0.7 ? 'light grey' : 'grey';
  const rn = r / 255;
  const gn = g / 255;
  const bn = b / 255;
  let hue = max === rn ? ((gn - bn) / chroma) % 6 : max === gn ? (bn - rn) / chroma + 2 : (rn - gn) / chroma + 4;
  hue = (hue * 60 + 360) % 360;
  const shade = (name: string) => (lightness < 0.3 ? `deep ${name}` : lightness > 0.72 ? `pale ${name}` : name);
  if (hue < 15 || hue >= 345) return lightness > 0.72 ? 'pink' : shade('red');
  if (hue < 40) return lightness < 0.4 ? 'brown' : lightness > 0.75 ? 'beige' : 'warm orange';
  if (hue < 68) return lightness < 0.35 ? 'olive' : shade('golden yellow');
  if (hue < 160) return shade('green');
  if (hue < 195) return shade('teal');
  if (hue < 250) return shade('blue');
  if (hue < 290) return shade('purple');
  return lightness > 0.6 ? 'pink' : shade('magenta');
}

interface PictureStats {
  width: number;
  height: number;
  /** Colour names by share of the picture's pixels, largest first. */
  colours: { name: string; share: number }[];
  /** Mean luminance 0…1. */
  brightness: number;
  /** Mean HSV saturation 0…1. */
  saturation: number;
  /** Standard deviation of luminance 0…~0.5. */
  contrast: number;
  transparent: boolean;
}

async function measurePicture(picture: Picture): Promise<PictureStats> {
  // 48×48 samples are plenty for colour shares and keep this fast.
  const { data } = await pictureToSharp(picture).resize(48, 48, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  const counts = new Map<string, number>();
  let luminanceSum = 0;
  let luminanceSquares = 0;
  let saturationSum = 0;
  let opaque = 0;
  let transparentPixels = 0;
  for (let offset = 0; offset < data.length; offset += 4) {
    const r = data[offset] ?? 0;
    const g = data[offset + 1] ?? 0;
    const b = data[offset + 2] ?? 0;
    if ((data[offset + 3] ?? 255) < 64) {
      transparentPixels += 1;
      continue;
    }
    opaque += 1;
    const name = colourName(r, g, b);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    const luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    luminanceSum += luminance;
    luminanceSquares += luminance * luminance;
    const max = Math.max(r, g, b);
    saturationSum += max === 0 ? 0 : (max - Math.min(r, g, b)) / max;
  }
  const pixels = Math.max(1, opaque);
  const brightness = luminanceSum / pixels;
  const colours = [...counts.entries()]
    .map(([name, count]) => ({ name, share: count / pixels }))
    .sort((a, b) => b.share - a.share || a.name.localeCompare(b.name));
  return {
    width: picture.width,
    height: picture.height,
    colours,
    brightness,
    saturation: saturationSum / pixels,
    contrast: Math.sqrt(Math.max(0, luminanceSquares / pixels - brightness * brightness)),
    transparent: transparentPixels > data.length / 4 / 10,
  };
}

function orientation(width: number, height: number): string {
  if (width > height * 1.1) return 'landscape';
  if (height > width * 1.1) return 'portrait';
  return 'square';
}

function describeStats(stats: PictureStats): string {
  const light = stats.brightness > 0.68 ? 'bright' : stats.brightness < 0.28 ? 'dark' : stats.brightness < 0.42 ? 'moody' : 'softly lit';
  const article = /^[aeiou]/.test(light) ? 'An' : 'A';
  const main = stats.colours.filter((colour) => colour.share >= 0.12).slice(0, 2);
  const named = main.length > 0 ? main : stats.colours.slice(0, 1);
  const colourPhrase =
    named.length === 0
      ? 'transparent'
      : named.length === 1 || (named[0]?.share ?? 0) > 0.8
        ? `${named[0]?.name ?? ''}`
        : `${named[0]?.name ?? ''} and ${named[1]?.name ?? ''}`;
  const contrast = stats.contrast > 0.25 ? 'strong contrast' : stats.contrast > 0.1 ? 'soft contrast' : 'flat, even tone';
  const saturation = stats.saturation > 0.55 ? 'vivid colours' : stats.saturation < 0.15 ? 'muted, almost monochrome colours' : 'natural colours';
  const shape = orientation(stats.width, stats.height);
  const background = stats.transparent ? ', on a transparent background' : '';
  return `${article} ${light} ${shape} picture (${stats.width}×${stats.height}) dominated by ${colourPhrase} tones, ${contrast}, ${saturation}${background}`;
}

export async function describePicture(picture: Picture): Promise<string> {
  return describeStats(await measurePicture(picture));
}

