import { RATIO_SIZES } from '../canvas-size.ts';
import { promptPalette, sceneSvg } from '../generated-scene.ts';
import type { RenderedVideo, VideoRenderRequest } from '../provider.ts';
import { RenderInputError } from '../render-errors.ts';
import { amountScale, planCamera, STILL, type CameraPlan, type Pose } from './camera.ts';
import { estimateDepth, mixDepth, type DepthMap } from './depth.ts';
import { BITEXACT, ffmpegOutput, H264_OUTPUT } from './ffmpeg.ts';
import { creationNames, finishVideo } from './finish.ts';
import { encodeFrames, VIDEO_FPS } from './h264.ts';
import { placedLogo, type PlacedLogo } from './logo.ts';
import { probeBytes } from './probe.ts';
import { clamp, drawOver, hexToRgb, lerp, sizeWithLongSide, smoothstep, tintInPlace, type Rgba, type Size } from './raster.ts';
import { coverPicture, loadPicture, readInputFile, sourceSizeFor, svgToRgba, VIDEO_LONG_SIDE, videoSizeFor } from './sources.ts';
import { subjectInto, subjectLayer, type SubjectMove } from './subject.ts';
import { MAX_INPUT_SECONDS, motionSignal, videoFrame, type MotionSample } from './video-input.ts';
import { drawFrame, type FrameLayer } from './warp.ts';

/**
 * Creation videos (SPEC §2.4): a picture (or a text's generated scene) filmed by a virtual camera
 * over its depth estimate, 24 fps, long side 640 px, `motion_length` seconds. Every creation type
 * is a variation on that: which pictures are in view when, and what moves the camera.
 */

/** What a clip shows at time t: the pictures (cross-faded by weight) and the depth they share. */
interface Shot {
  layers: readonly FrameLayer[];
  depth: DepthMap;
}

interface Clip {
  size: Size;
  frameCount: number;
  shotAt: (t: number) => Shot;
  poseAt: (t: number) => Pose;
  /** Colour of the prompt's wash and how much of it at time t (0 = none). */
  wash?: { colour: [number, number, number]; amountAt: (t: number) => number };
  /** Draws the frames last to first (extend at the start). */
  reversed?: boolean;
  /** Draws a frame itself instead of filming the shot with the camera (the character's dance; shotAt and poseAt then go unused). */
  drawAt?: (t: number, frame: Rgba) => void;
}

const still = (picture: Rgba, depth: DepthMap): Shot => ({ layers: [{ picture, weight: 1 }], depth });

const framesFor = (seconds: number): number => Math.max(2, Math.round(clamp(seconds, 1, MAX_INPUT_SECONDS) * VIDEO_FPS));

const picturesOf = (request: VideoRenderRequest) => request.inputs.filter((input) => input.field !== 'video_url');
const videoOf = (request: VideoRenderRequest) => request.inputs.find((input) => input.field === 'video_url');

function cameraFor(request: VideoRenderRequest, ambient: boolean): CameraPlan {
  return planCamera({ preset: request.preset, index: request.index, seed: request.seed, ambient });
}

/** With a picture and a prompt, the prompt's colours drift in as the clip plays, as much as its strength says. */
function promptWash(request: VideoRenderRequest): Clip['wash'] {
  if (request.prompt.trim() === '') return undefined;
  const strength = clamp(request.promptStrength, 0, 100) / 100;
  const colour = hexToRgb(promptPalette(request.prompt, request.seed)[2]);
  return { colour, amountAt: (t) => 0.22 * strength * smoothstep(0, 1, t) };
}

async function pictureClip(request: VideoRenderRequest, ambient: boolean): Promise<Clip> {
  const [first] = picturesOf(request);
  if (!first) return textClip(request);
  const picture = await loadPicture(first);
  const size = videoSizeFor(picture);
  const source = await coverPicture(picture, sourceSizeFor(size));
  const depth = estimateDepth(source);
  const camera = cameraFor(request, ambient);
  const clip: Clip = { size, frameCount: framesFor(request.preset.motion_length), shotAt: () => still(source, depth), poseAt: camera.pose };
  const wash = ambient ? promptWash(request) : undefined;
  return wash ? { ...clip, wash } : clip;
}

/** The video size of a text-only clip: the asked ratio (16:9 when none), long side 640. */
function textVideoSize(ratio: string | null | undefined): Size {
  const known = (ratio && RATIO_SIZES[ratio]) || RATIO_SIZES['16:9'] || { width: 16, height: 9 };
  return sizeWithLongSide(known.width / known.height, VIDEO_LONG_SIDE);
}

async function textClip(request: VideoRenderRequest): Promise<Clip> {
  const size = textVideoSize(request.aspectRatio);
  const sourceSize = sourceSizeFor(size);
  const source = await svgToRgba(sceneSvg({ size: sourceSize, prompt: request.prompt, model: request.model, seed: `${request.seed}:${request.index}`, caption: false }), sourceSize);
  const depth = estimateDepth(source);
  return { size, frameCount: framesFor(request.preset.motion_length), shotAt: () => still(source, depth), poseAt: cameraFor(request, true).pose };
}

/** Loads every picture of the request at the first one's video size. */
async function sameSizedPictures(request: VideoRenderRequest, minimum: number): Promise<{ size: Size; pictures: Rgba[] }> {
  const inputs = picturesOf(request);
  if (inputs.length < minimum) throw new RenderInputError(`This video needs ${minimum} pictures.`);
  const loaded = await Promise.all(inputs.map(loadPicture));
  const size = videoSizeFor(loaded[0] as Rgba);
  const pictures = await Promise.all(loaded.map((picture) => coverPicture(picture, sourceSizeFor(size))));
  return { size, pictures };
}

/** Transition: the first frame dissolves into the end frame while the camera moves. */
async function transitionClip(request: VideoRenderRequest): Promise<Clip> {
  const { size, pictures } = await sameSizedPictures(request, 2);
  const [first, end] = pictures as [Rgba, Rgba];
  const depths = [estimateDepth(first), estimateDepth(end)] as const;
  const camera = cameraFor(request, true);
  return {
    size,
    frameCount: framesFor(request.preset.motion_length),
    shotAt: (t) => {
      const mix = smoothstep(0.2, 0.85, t);
      return { layers: [{ picture: first, weight: 1 - mix }, { picture: end, weight: mix }], depth: mixDepth(depths[0], depths[1], mix) };
    },
    // The first picture pushes in as it leaves; the end picture settles from a little closer.
    poseAt: (t) => {
      const pose = camera.pose(t);
      return { ...pose, zoom: pose.zoom * (1 + 0.06 * Math.sin(Math.PI * smoothstep(0.1, 0.95, t))) };
    },
  };
}

/** Composer: the pictures in order, each held for an equal share and dissolving into the next. */
async function composerClip(request: VideoRenderRequest): Promise<Clip> {
  const { size, pictures } = await sameSizedPictures(request, 2);
  const depths = pictures.map(estimateDepth);
  const camera = cameraFor(request, true);
  const count = pictures.length;
  const at = (t: number) => {
    const position = clamp(t, 0, 1) * count;
    const index = Math.min(count - 1, Math.floor(position));
    return { index, local: position - index };
  };
  return {
    size,
    frameCount: framesFor(request.preset.motion_length),
    shotAt: (t) => {
      const { index, local } = at(t);
      const current = pictures[index] as Rgba;
      const next = pictures[index + 1];
      const mix = next ? smoothstep(0.7, 1, local) : 0;
      const depth = next ? mixDepth(depths[index] as DepthMap, depths[index + 1] as DepthMap, mix) : (depths[index] as DepthMap);
      return { layers: next ? [{ picture: current, weight: 1 - mix }, { picture: next, weight: mix }] : [{ picture: current, weight: 1 }], depth };
    },
    // Each picture gets its own slow push-in on top of the camera's move.
    poseAt: (t) => {
      const pose = camera.pose(t);
      return { ...pose, zoom: pose.zoom * (1 + 0.06 * at(t).local) };
    },
  };
}

/** A T-shirt outline in unit coordinates (as the picture try-on uses). */
const GARMENT: readonly (readonly [number, number])[] = [
  [0.3, 0], [0.42, 0], [0.5, 0.08], [0.58, 0], [0.7, 0], [1, 0.18], [0.88, 0.36], [0.78, 0.3],
  [0.78, 1], [0.22, 1], [0.22, 0.3], [0.12, 0.36], [0, 0.18],
];

function insideGarment(x: number, y: number): boolean {
  let inside = false;
  for (let index = 0, previous = GARMENT.length - 1; index < GARMENT.length; previous = index, index += 1) {
    const [xi, yi] = GARMENT[index] as readonly [number, number];
    const [xj, yj] = GARMENT[previous] as readonly [number, number];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The person wearing the clothes: the clothes picture cut to a garment shape over the torso. */
async function dressed(person: Rgba, clothes: Rgba): Promise<Rgba> {
  const box = { left: Math.round(person.width * 0.25), top: Math.round(person.height * 0.3), width: Math.round(person.width * 0.5), height: Math.round(person.height * 0.45) };
  const garment = await coverPicture(clothes, box);
  const out = new Uint8Array(person.data);
  for (let y = 0; y < box.height; y += 1) {
    for (let x = 0; x < box.width; x += 1) {
      if (!insideGarment((x + 0.5) / box.width, (y + 0.5) / box.height)) continue;
      const source = (y * box.width + x) * 4;
      const target = ((box.top + y) * person.width + box.left + x) * 4;
      out.set(garment.data.subarray(source, source + 3), target);
    }
  }
  return { data: out, width: person.width, height: person.height };
}

/** Try-on video: the clothes appear on the person over the first half, the camera drifting gently. */
async function tryOnClip(request: VideoRenderRequest): Promise<Clip> {
  const { size, pictures } = await sameSizedPictures(request, 2);
  const [person, clothes] = pictures as [Rgba, Rgba];
  const wearing = await dressed(person, clothes);
  const depth = estimateDepth(person);
  const camera = cameraFor(request, true);
  return {
    size,
    frameCount: framesFor(request.preset.motion_length),
    shotAt: (t) => {
      const mix = smoothstep(0.1, 0.55, t);
      return { layers: [{ picture: person, weight: 1 - mix }, { picture: wearing, weight: mix }], depth };
    },
    poseAt: camera.pose,
  };
}

/**
 * Character animation: the character (the subject layer, cut from its backdrop) sways, bounces,
 * leans and stretches with the driving video's motion: how much moves in each of its frames and
 * where.
 */
async function characterClip(request: VideoRenderRequest): Promise<Clip> {
  const [first] = picturesOf(request);
  const driving = videoOf(request);
  if (!first) throw new RenderInputError('Character animation needs a picture of the character.');
  if (!driving) throw new RenderInputError('Character animation needs a driving video.');
  const picture = await loadPicture(first);
  const size = videoSizeFor(picture);
  const source = await coverPicture(picture, sourceSizeFor(size));
  const depth = estimateDepth(source);
  const layer = subjectLayer(source, depth);
  const plate = await coverPicture(layer.plate, size);
  const signal = await motionSignal(await readInputFile(driving), VIDEO_FPS);
  const frameCount = framesFor(request.preset.motion_length);
  const amount = amountScale(request.preset.motion_amount);
  // The driving video's motion, smoothed over five frames (looped when it is shorter than the clip).
  const motionAt = (frame: number): MotionSample => {
    const window = [-2, -1, 0, 1, 2].map((offset) => signal[(((frame + offset) % signal.length) + signal.length) % signal.length] ?? { energy: 0, x: 0, y: 0 });
    const mean = (read: (sample: MotionSample) => number) => window.reduce((sum, sample) => sum + read(sample), 0) / window.length;
    return { energy: mean((sample) => sample.energy), x: mean((sample) => sample.x), y: mean((sample) => sample.y) };
  };
  return {
    size,
    frameCount,
    shotAt: () => still(source, depth),
    poseAt: () => STILL,
    drawAt: (t, frame) => {
      const motion = motionAt(Math.round(t * (frameCount - 1)));
      const beat = Math.sin(2 * Math.PI * 2 * t);
      const move: SubjectMove = {
        anchorX: (layer.box.left + layer.box.right) / 2,
        anchorY: layer.box.bottom,
        scaleX: 1 - 0.03 * amount * (motion.energy - 0.5),
        scaleY: 1 + 0.07 * amount * (motion.energy - 0.5),
        rotate: 0.08 * amount * motion.x * motion.energy,
        shiftX: (0.04 * motion.x * motion.energy + 0.01 * beat * motion.energy) * amount,
        shiftY: -0.03 * amount * motion.energy * Math.abs(beat),
      };
      subjectInto(frame, source, layer, plate, null, move, 0);
    },
  };
}

/** The camera plan moved so it starts exactly at the still frame (extending must not jump). */
function anchored(plan: CameraPlan): (t: number) => Pose {
  const start = plan.pose(0);
  return (t) => {
    const pose = plan.pose(t);
    const ramp = smoothstep(0, 0.3, t);
    return {
      zoom: Math.max(1, pose.zoom / start.zoom) * lerp(1, 1.06, ramp),
      roll: pose.roll - start.roll,
      panX: pose.panX - start.panX,
      panY: pose.panY - start.panY,
      camX: pose.camX - start.camX,
      camY: pose.camY - start.camY,
      focus: pose.focus,
      dolly: pose.dolly - start.dolly,
      vertigo: pose.vertigo - start.vertigo,
      bodyX: pose.bodyX - start.bodyX,
      bodyY: pose.bodyY - start.bodyY,
      stretchY: pose.stretchY - start.stretchY,
    };
  };
}

async function drawClip(clip: Clip, logo: PlacedLogo | null): Promise<Uint8Array> {
  const last = clip.frameCount - 1;
  return encodeFrames(clip.size, clip.frameCount, (index, frame) => {
    const t = (clip.reversed ? last - index : index) / last;
    if (clip.drawAt) clip.drawAt(t, frame);
    else {
      const shot = clip.shotAt(t);
      drawFrame(frame, shot.layers, shot.depth, clip.poseAt(t));
    }
    if (clip.wash) tintInPlace(frame, clip.wash.colour, clip.wash.amountAt(t));
    if (logo) drawOver(frame, logo.picture, logo.left, logo.top);
  });
}

/**
 * Extend Video: a new clip from the input's last (or first) frame. Last → the original then the
 * new clip; First → the new clip played backwards (it ends on the first frame) then the original.
 */
async function extendVideo(request: VideoRenderRequest): Promise<Uint8Array> {
  const input = videoOf(request);
  if (!input) throw new RenderInputError('Extend Video needs a video.');
  const original = await readInputFile(input);
  const probe = await probeBytes(original, 'in.video');
  if (!probe.hasVideo || !probe.width || !probe.height) throw new RenderInputError('The video given as video_url could not be read.');
  const size = sizeWithLongSide(probe.width / probe.height, VIDEO_LONG_SIDE);
  const atStart = request.frameSelection === 'First';
  const frame = await videoFrame(original, atStart ? 'first' : 'last', probe.durationSeconds, sourceSizeFor(size));
  const depth = estimateDepth(frame);
  const clip: Clip = {
    size,
    frameCount: framesFor(request.preset.motion_length),
    shotAt: () => still(frame, depth),
    poseAt: anchored(cameraFor(request, true)),
    reversed: atStart,
  };
  const wash = promptWash(request);
  const continuation = await drawClip(wash ? { ...clip, wash } : clip, null);
  const logo = request.logo ? await placedLogo(size) : null;
  const fit = `scale=${size.width}:${size.height}:force_original_aspect_ratio=decrease,pad=${size.width}:${size.height}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=${VIDEO_FPS},format=yuv420p`;
  const order = atStart ? '[c][o]' : '[o][c]';
  const overlay = logo ? `;[joined][2:v]overlay=${logo.left}:${logo.top}[v]` : '';
  return ffmpegOutput(
    {
      inputs: { 'in.video': original, 'clip.mp4': continuation, ...(logo ? { 'logo.png': logo.png } : {}) },
      args: [
        '-t', String(MAX_INPUT_SECONDS), '-i', 'in.video', '-i', 'clip.mp4', ...(logo ? ['-i', 'logo.png'] : []),
        '-filter_complex', `[0:v]${fit}[o];[1:v]setsar=1,format=yuv420p[c];${order}concat=n=2:v=1:a=0[${logo ? 'joined' : 'v'}]${overlay}`,
        '-map', '[v]', ...H264_OUTPUT, ...BITEXACT, 'out.mp4',
      ],
    },
    'out.mp4',
  );
}

async function clipFor(request: VideoRenderRequest): Promise<Clip> {
  switch (request.creationType) {
    case 'parallax-motion':
      return pictureClip(request, false);
    case 'try-on':
      return tryOnClip(request);
    case 'character-animate':
      return characterClip(request);
    default:
      switch (request.motionMode) {
        case 'text':
          return textClip(request);
        case 'transition':
          return transitionClip(request);
        case 'composer':
          return composerClip(request);
        default:
          return pictureClip(request, true);
      }
  }
}

export async function renderCreationVideo(request: VideoRenderRequest): Promise<RenderedVideo> {
  const names = creationNames(request.logo);
  if (request.creationType === 'extend-video') return finishVideo(await extendVideo(request), names);
  const clip = await clipFor(request);
  const logo = request.logo ? await placedLogo(clip.size) : null;
  return finishVideo(await drawClip(clip, logo), names);
}
