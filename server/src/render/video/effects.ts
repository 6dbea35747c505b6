import { VIDEO_EFFECT_FAMILIES, type EffectFamily } from '../../../../src/config/effects.ts';
import { promptPalette } from '../generated-scene.ts';
import type { VideoEditRequest } from '../provider.ts';
import { RenderInputError } from '../render-errors.ts';
import { hashParts, seededRandom } from '../seeded-random.ts';
import { STILL, type Pose } from './camera.ts';
import { estimateDepth, type DepthMap } from './depth.ts';
import { encodeFrames, VIDEO_FPS } from './h264.ts';
import { placedLogo } from './logo.ts';
import { clamp, createRgba, drawOver, hexToRgb, lerp, smoothstep, tintInPlace, type Rgba, type Size } from './raster.ts';
import { coverPicture, loadPicture, sourceSizeFor, videoSizeFor } from './sources.ts';
import { subjectInto, subjectLayer, type SubjectLayer, type SubjectMove } from './subject.ts';
import { drawFrame, type FrameLayer } from './warp.ts';

/**
 * Video effects (SPEC §9 effect families): a 5 s clip from the first frame with the effect's
 * look. Each effect maps to one of a dozen looks by the words of its value and label ("squish",
 * "inflate", "melt", "spin"…); an effect naming none gets a look chosen by its hash. With an end
 * frame, the clip ends on it (two-person effects bring the two pictures together).
 */

const EFFECT_SECONDS = 5;

type Look = 'squash' | 'inflate' | 'melt' | 'spin' | 'zoom' | 'explode' | 'levitate' | 'pixelate' | 'paint' | 'couple' | 'shake';

const LOOK_WORDS: readonly (readonly [Look, readonly string[]])[] = [
  ['couple', ['hug', 'kiss', 'heart', 'love', 'couple', 'proposal', 'romantic', 'cupid', 'wedding', 'pet_lovers']],
  ['squash', ['squish', 'squash', 'crush', 'deflate', 'microwave']],
  ['inflate', ['inflate', 'expansion', 'balloon belly', 'muscle', 'hulk', 'surge']],
  ['melt', ['melt', 'dissolve', 'liquid', 'fuzzy']],
  ['spin', ['spin', 'rotate']],
  ['zoom', ['zoom']],
  ['explode', ['explode', 'crumble', 'tear', 'peel', 'decapitate', 'eye-pop', 'cake', 'gun', 'smash', 'poke']],
  ['levitate', ['levitate', 'fly', 'flying', 'wings', 'ta-da', 'lift', 'arrival']],
  ['pixelate', ['minecraft', 'lego', 'box_me', 'pixel']],
  ['shake', ['shake', 'dance', 'subject_3', 'leggy', 'run', 'winner']],
  ['paint', ['ghibli', 'painting', 'anime', 'cartoon', 'disney', 'princess', 'mona', 'snow', 'figurine', 'cyberpunk', 'venom', 'zombie', 'classy', 'bride', 'baby', 'puppy', 'pirate', 'warrior', 'suit', 'dreamy', 'exotic', 'doll', 'outfit', 'armor', 'metal', 'emotion', 'live_photo', 'beast', 'smooth_shift']],
];
const ALL_LOOKS: readonly Look[] = ['squash', 'inflate', 'melt', 'spin', 'zoom', 'explode', 'levitate', 'pixelate', 'paint', 'shake'];

/** The effect's look from its value and label (Pixverse effects are numeric ids: their label says it). */
function lookFor(model: string, effect: string): Look {
  const family = VIDEO_EFFECT_FAMILIES[model as EffectFamily] as (typeof VIDEO_EFFECT_FAMILIES)[EffectFamily] | undefined;
  const label = family?.effects.find((candidate) => candidate.value === effect)?.label ?? '';
  const name = `${effect} ${label}`.toLowerCase();
  const found = LOOK_WORDS.find(([, words]) => words.some((word) => name.includes(word)));
  return found ? found[0] : (ALL_LOOKS[hashParts('effect-look', model, effect) % ALL_LOOKS.length] as Look);
}

interface EffectScene {
  size: Size;
  first: Rgba;
  end: Rgba | null;
  depth: DepthMap;
  seed: string;
  palette: [number, number, number];
}

const ease = (t: number) => smoothstep(0, 1, t);

type SubjectLook = 'squash' | 'inflate' | 'spin' | 'levitate' | 'shake';
const SUBJECT_LOOKS: readonly Look[] = ['squash', 'inflate', 'spin', 'levitate', 'shake'];

function subjectMove(look: SubjectLook, t: number, box: SubjectLayer['box']): SubjectMove {
  const grow = smoothstep(0.1, 0.6, t);
  const centreX = (box.left + box.right) / 2;
  const centreY = (box.top + box.bottom) / 2;
  const still: SubjectMove = { anchorX: centreX, anchorY: centreY, scaleX: 1, scaleY: 1, rotate: 0, shiftX: 0, shiftY: 0 };
  switch (look) {
    case 'squash': {
      const wobble = 0.05 * Math.sin(6 * Math.PI * t) * grow;
      // Flattened onto the ground it stands on (the bottom of the subject stays put).
      return { ...still, anchorY: box.bottom, scaleY: 1 - 0.5 * grow + wobble, scaleX: 1 + 0.25 * grow - wobble };
    }
    case 'inflate':
      return { ...still, scaleX: 1 + 0.45 * grow + 0.03 * Math.sin(8 * Math.PI * t) * grow, scaleY: 1 + 0.45 * grow };
    case 'spin':
      return { ...still, rotate: 2 * Math.PI * ease(t) };
    case 'levitate':
      return { ...still, shiftY: -0.22 * ease(t) + 0.012 * Math.sin(4 * Math.PI * t), shiftX: 0.015 * Math.sin(2 * Math.PI * t) };
    default: {
      const envelope = smoothstep(0, 0.15, t) * (1 - smoothstep(0.85, 1, t));
      return { ...still, anchorY: box.bottom, shiftX: 0.04 * Math.sin(2 * Math.PI * 6 * t) * envelope, scaleY: 1 + 0.06 * Math.sin(2 * Math.PI * 12 * t) * envelope };
    }
  }
}

/** The zoom look is a camera move: a crash zoom into the picture. */
const zoomPose = (t: number): Pose => ({ ...STILL, zoom: 1.04 * (1 + 2.4 * ease(t) ** 2) });
/** Painted and melting looks keep the camera almost still. */
const drift = (t: number): Pose => ({ ...STILL, zoom: 1.06 + 0.05 * t });

/** Quantises each channel to `levels` levels, in place (the painted / toy looks). */
function posteriseInPlace(frame: Rgba, levels: number): void {
  const step = 255 / (levels - 1);
  for (let offset = 0; offset < frame.data.length; offset += 1) {
    if ((offset & 3) === 3) continue;
    frame.data[offset] = Math.round(Math.round((frame.data[offset] ?? 0) / step) * step);
  }
}

/** Melt: columns sag downward by a seeded drip profile, uncovering a dark backdrop at the top. */
function meltInPlace(frame: Rgba, scratch: Rgba, amount: number, drips: Float32Array): void {
  scratch.data.set(frame.data);
  const { width, height } = frame;
  for (let x = 0; x < width; x += 1) {
    const sag = clamp(amount * (drips[x] ?? 0.5), 0, 0.95);
    const top = sag * height;
    for (let y = 0; y < height; y += 1) {
      const target = (y * width + x) * 4;
      if (y < top) {
        frame.data[target] = 18;
        frame.data[target + 1] = 14;
        frame.data[target + 2] = 24;
        continue;
      }
      const sourceY = Math.min(height - 1, Math.round(((y - top) / (height - top)) * (height - 1)));
      const source = (sourceY * width + x) * 4;
      frame.data[target] = scratch.data[source] ?? 0;
      frame.data[target + 1] = scratch.data[source + 1] ?? 0;
      frame.data[target + 2] = scratch.data[source + 2] ?? 0;
    }
  }
}

/** Smooth per-column drip amounts from the seed. */
function dripProfile(width: number, seed: string): Float32Array {
  const random = seededRandom('melt', seed);
  const knots = Array.from({ length: 12 }, () => 0.35 + 0.65 * random());
  const drips = new Float32Array(width);
  for (let x = 0; x < width; x += 1) {
    const position = (x / Math.max(1, width - 1)) * (knots.length - 1);
    const index = Math.min(knots.length - 2, Math.floor(position));
    drips[x] = lerp(knots[index] ?? 0.5, knots[index + 1] ?? 0.5, smoothstep(0, 1, position - index));
  }
  return drips;
}

/** Explode: the picture breaks into tiles that fly outward and shrink over a dark backdrop. */
function explodeInto(frame: Rgba, picture: Rgba, t: number, seed: string): void {
  const { width, height, data } = frame;
  for (let offset = 0; offset < data.length; offset += 4) {
    data[offset] = 14;
    data[offset + 1] = 12;
    data[offset + 2] = 20;
    data[offset + 3] = 255;
  }
  const columns = 8;
  const rows = 6;
  const random = seededRandom('explode', seed);
  const burst = Math.max(0, (t - 0.2) / 0.8) ** 2;
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      const jitterX = random() - 0.5;
      const jitterY = random() - 0.5;
      const speed = 0.6 + random();
      const tileWidth = width / columns;
      const tileHeight = height / rows;
      const centreX = (column + 0.5) * tileWidth;
      const centreY = (row + 0.5) * tileHeight;
      const directionX = (centreX - width / 2) / width + jitterX * 0.4;
      const directionY = (centreY - height / 2) / height + jitterY * 0.4 - 0.1;
      const scale = 1 - 0.6 * burst;
      const newX = centreX + directionX * speed * burst * width * 1.6;
      const newY = centreY + directionY * speed * burst * height * 1.6;
      const halfWidth = (tileWidth * scale) / 2;
      const halfHeight = (tileHeight * scale) / 2;
      for (let y = Math.max(0, Math.floor(newY - halfHeight)); y < Math.min(height, Math.ceil(newY + halfHeight)); y += 1) {
        for (let x = Math.max(0, Math.floor(newX - halfWidth)); x < Math.min(width, Math.ceil(newX + halfWidth)); x += 1) {
          const u = (centreX + (x - newX) / scale) / width;
          const v = (centreY + (y - newY) / scale) / height;
          const sourceX = clamp(Math.round(u * picture.width - 0.5), 0, picture.width - 1);
          const sourceY = clamp(Math.round(v * picture.height - 0.5), 0, picture.height - 1);
          const source = (sourceY * picture.width + sourceX) * 4;
          const target = (y * width + x) * 4;
          data[target] = picture.data[source] ?? 0;
          data[target + 1] = picture.data[source + 1] ?? 0;
          data[target + 2] = picture.data[source + 2] ?? 0;
        }
      }
    }
  }
}

/** Pixelate: blocks grow from single pixels to chunky bricks. */
function pixelateInto(frame: Rgba, picture: Rgba, t: number): void {
  const block = 1 + Math.floor(23 * ease(t));
  const { width, height, data } = frame;
  for (let y = 0; y < height; y += 1) {
    const blockY = Math.min(height - 1, Math.floor(y / block) * block + Math.floor(block / 2));
    const sourceY = clamp(Math.round(((blockY + 0.5) / height) * picture.height - 0.5), 0, picture.height - 1);
    for (let x = 0; x < width; x += 1) {
      const blockX = Math.min(width - 1, Math.floor(x / block) * block + Math.floor(block / 2));
      const sourceX = clamp(Math.round(((blockX + 0.5) / width) * picture.width - 0.5), 0, picture.width - 1);
      const source = (sourceY * picture.width + sourceX) * 4;
      const target = (y * width + x) * 4;
      data[target] = picture.data[source] ?? 0;
      data[target + 1] = picture.data[source + 1] ?? 0;
      data[target + 2] = picture.data[source + 2] ?? 0;
      data[target + 3] = 255;
    }
  }
}

/** Two people coming together: each picture slides in from its side and they meet in a warm blend. */
function coupleInto(frame: Rgba, scratch: Rgba, scene: EffectScene, t: number): void {
  const other = scene.end ?? scene.first;
  const meet = ease(t);
  drawFrame(frame, [{ picture: scene.first, weight: 1 }], scene.depth, { ...STILL, zoom: 1.08, panX: -0.2 * (1 - meet) });
  drawFrame(scratch, [{ picture: other, weight: 1 }], scene.depth, { ...STILL, zoom: 1.08, panX: 0.2 * (1 - meet) });
  const { width, height } = frame;
  for (let x = 0; x < width; x += 1) {
    const share = lerp(smoothstep(0.35, 0.65, x / width), 0.5, meet);
    for (let y = 0; y < height; y += 1) {
      const offset = (y * width + x) * 4;
      for (let channel = 0; channel < 3; channel += 1) {
        frame.data[offset + channel] = (frame.data[offset + channel] ?? 0) * (1 - share) + (scratch.data[offset + channel] ?? 0) * share;
      }
    }
  }
  tintInPlace(frame, [255, 120, 150], 0.12 * Math.sin(Math.PI * t) ** 2);
}

export async function renderEffectVideo(request: VideoEditRequest): Promise<Uint8Array> {
  const firstInput = request.inputs.find((input) => input.field === 'image_url') ?? request.inputs[0];
  if (!firstInput) throw new RenderInputError('Video effects need a first frame (image_url).');
  const picture = await loadPicture(firstInput);
  const size = videoSizeFor(picture);
  const sourceSize = sourceSizeFor(size);
  const first = await coverPicture(picture, sourceSize);
  const endInput = request.inputs.find((input) => input.field === 'ref_image_url');
  const end = endInput ? await coverPicture(await loadPicture(endInput), sourceSize) : null;
  const effect = typeof request.args.effect === 'string' ? request.args.effect : '';
  const look = lookFor(request.model, effect);
  const seed = `${request.seed}:${request.model}:${effect}`;
  const scene: EffectScene = { size, first, end, depth: estimateDepth(first), seed, palette: hexToRgb(promptPalette(effect, seed)[2]) };
  const layer = SUBJECT_LOOKS.includes(look) ? subjectLayer(first, scene.depth) : null;
  // The subject looks read the backdrop and the end frame pixel for pixel: resized to the frame once.
  const plate = layer ? await coverPicture(layer.plate, size) : null;
  const endAtSize = end && layer ? await coverPicture(end, size) : null;
  const logo = request.logo ? await placedLogo(size) : null;
  const scratch = createRgba(size);
  const drips = dripProfile(size.width, seed);
  const frameCount = EFFECT_SECONDS * VIDEO_FPS;

  return encodeFrames(size, frameCount, (index, frame) => {
    const t = index / (frameCount - 1);
    // An end frame (other than the couple look's second person) is where the clip lands.
    const landing = end && look !== 'couple' ? smoothstep(0.55, 0.95, t) : 0;
    const layers: FrameLayer[] = [{ picture: first, weight: 1 - landing }, ...(end ? [{ picture: end, weight: landing }] : [])];
    switch (look) {
      case 'couple':
        coupleInto(frame, scratch, scene, t);
        break;
      case 'explode':
        explodeInto(frame, first, t, seed);
        break;
      case 'pixelate':
        pixelateInto(frame, first, t);
        posteriseInPlace(frame, Math.round(lerp(24, 5, ease(t))));
        break;
      case 'melt':
        drawFrame(frame, layers, scene.depth, drift(t));
        meltInPlace(frame, scratch, 0.6 * ease(t) ** 1.5, drips);
        break;
      case 'paint':
        drawFrame(frame, layers, scene.depth, drift(t));
        posteriseInPlace(frame, Math.round(lerp(32, 5, ease(t))));
        tintInPlace(frame, scene.palette, 0.28 * ease(t));
        break;
      case 'zoom':
        drawFrame(frame, layers, scene.depth, zoomPose(t));
        break;
      default:
        if (layer && plate) subjectInto(frame, first, layer, plate, endAtSize, subjectMove(look as SubjectLook, t, layer.box), landing);
    }
    if (logo) drawOver(frame, logo.picture, logo.left, logo.top);
  });
}
