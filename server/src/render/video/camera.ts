import { CAMERA_MOTIONS } from '../../../../src/config/camera-motions.ts';
import { MOTION_AMOUNT } from '../../../../src/config/video-creation.ts';
import type { PosePreset } from '../../../../src/lib/pose-preset.ts';
import { between, pick, seededRandom } from '../seeded-random.ts';
import { clamp, lerp, smoothstep } from './raster.ts';

/**
 * Where the virtual camera is at each moment of a clip. A pose says how the picture is seen: the
 * camera's translation (which shifts near layers more than far ones: parallax), a forward dolly,
 * a uniform pan/zoom/roll, and the dolly-zoom and character terms. Parallax camera paths (SPEC §9)
 * and camera motions (SPEC §9 camera motions) are both functions of time t ∈ [0, 1] → pose.
 */

export interface Pose {
  /** Uniform magnification; above 1 keeps the picture's edges out of view. */
  zoom: number;
  /** Roll in radians (clockwise on screen). */
  roll: number;
  /** Uniform shift of the whole picture, in output widths / heights (pan and tilt). */
  panX: number;
  panY: number;
  /** Camera translation, in output short sides per unit depth away from `focus`. */
  camX: number;
  camY: number;
  /** The depth that stays still while the camera translates (0.5 orbits the middle, 0 trucks past). */
  focus: number;
  /** Forward move: a layer of depth d grows by 1 + dolly·d. */
  dolly: number;
  /** Dolly zoom: far layers grow by 1 + vertigo·(1 − d) while near ones keep their size. */
  vertigo: number;
  /** Character motion: the foreground (by depth) shifts and stretches. */
  bodyX: number;
  bodyY: number;
  stretchY: number;
}

export const STILL: Pose = { zoom: 1, roll: 0, panX: 0, panY: 0, camX: 0, camY: 0, focus: 0, dolly: 0, vertigo: 0, bodyX: 0, bodyY: 0, stretchY: 0 };

export interface CameraPlan {
  /** The camera motion or path actually used (Auto resolved). */
  name: string;
  pose: (t: number) => Pose;
}

/** How far the parallax camera swings at motion amount 5, in output short sides per unit depth. */
const PARALLAX_SWING = 0.07;
/** The zoom that hides the edges a parallax swing would reveal. */
const PARALLAX_ZOOM = 1.12;

const eased = (t: number) => smoothstep(0, 1, t);
/** 0 → 1 → 0 over the clip, for looping clips that end where they began. */
const outAndBack = (t: number) => (1 - Math.cos(2 * Math.PI * t)) / 2;

/** Piecewise-linear path through waypoints, eased per leg (the Cross path). */
function throughWaypoints(points: readonly (readonly [number, number])[], t: number): [number, number] {
  const legs = points.length - 1;
  const position = clamp(t, 0, 1) * legs;
  const leg = Math.min(legs - 1, Math.floor(position));
  const from = points[leg] ?? [0, 0];
  const to = points[leg + 1] ?? from;
  const local = eased(position - leg);
  return [lerp(from[0], to[0], local), lerp(from[1], to[1], local)];
}

/** Motion amount 1–10 → a multiplier around 1 (5 is the SPEC default). */
export function amountScale(amount: number): number {
  const value = Number.isFinite(amount) ? amount : MOTION_AMOUNT.default;
  return clamp(value, MOTION_AMOUNT.min, MOTION_AMOUNT.max) / MOTION_AMOUNT.default;
}

/**
 * Parallax camera paths: the camera moves over the depth estimate. Arcs and the circle orbit the
 * middle depth (focus 0.5: the background drifts with the camera, the foreground against it);
 * steps truck sideways (focus 0: everything moves against the camera, near layers most).
 */
function parallaxPose(path: string, progress: number, cyclic: number, swing: number): Pose {
  const base = { ...STILL, zoom: PARALLAX_ZOOM };
  switch (path) {
    case 'HorizontalArc':
      return { ...base, camX: lerp(-1, 1, progress) * swing, focus: 0.5, dolly: 0.06 * Math.sin(Math.PI * progress) };
    case 'VerticalArc':
      return { ...base, camY: lerp(1, -1, progress) * swing, focus: 0.5, dolly: 0.06 * Math.sin(Math.PI * progress) };
    case 'Circular':
      return { ...base, camX: Math.sin(2 * Math.PI * cyclic) * swing, camY: -Math.cos(2 * Math.PI * cyclic) * swing, focus: 0.5 };
    case 'StepIn':
      return { ...base, dolly: 0.22 * progress * (swing / PARALLAX_SWING), focus: 0 };
    case 'Cross': {
      const [x, y] = throughWaypoints([[0, 0], [-1, 0], [1, 0], [0, 0], [0, -1], [0, 1], [0, 0]], cyclic);
      return { ...base, camX: x * swing, camY: y * swing, focus: 0.5 };
    }
    case 'StepL':
      return { ...base, camX: -progress * swing * 1.4, focus: 0 };
    case 'StepR':
      return { ...base, camX: progress * swing * 1.4, focus: 0 };
    case 'StepU':
      return { ...base, camY: -progress * swing * 1.4, focus: 0 };
    case 'StepD':
      return { ...base, camY: progress * swing * 1.4, focus: 0 };
    default:
      return { ...base, camX: lerp(-1, 1, progress) * swing, focus: 0.5 };
  }
}

/** Camera motions (SPEC §9): pans and tilts shift the view, orbits and cranes move the camera through depth. */
function motionPose(motion: string, progress: number, cyclic: number, scale: number): Pose {
  const base = { ...STILL, zoom: 1.08 };
  switch (motion) {
    case 'Static':
      return base;
    case 'PanRight':
      return { ...base, panX: -0.1 * scale * progress, camX: 0.02 * scale * progress, focus: 0.3 };
    case 'PanLeft':
      return { ...base, panX: 0.1 * scale * progress, camX: -0.02 * scale * progress, focus: 0.3 };
    case 'TiltUp':
      return { ...base, panY: 0.1 * scale * progress, camY: -0.02 * scale * progress, focus: 0.3 };
    case 'TiltDown':
      return { ...base, panY: -0.1 * scale * progress, camY: 0.02 * scale * progress, focus: 0.3 };
    case 'ZoomIn':
      return { ...base, zoom: base.zoom * (1 + 0.35 * scale * progress) };
    case 'ZoomOut':
      return { ...base, zoom: base.zoom * (1 + 0.35 * scale * (1 - progress)) };
    case 'RollRight':
      return { ...base, zoom: base.zoom + 0.12 * scale * progress, roll: 0.2 * scale * progress };
    case 'RollLeft':
      return { ...base, zoom: base.zoom + 0.12 * scale * progress, roll: -0.2 * scale * progress };
    case 'OrbitRight':
      return { ...base, zoom: 1.14, camX: 0.08 * scale * lerp(-1, 1, progress), focus: 0.5, roll: 0.02 * scale * lerp(-1, 1, progress) };
    case 'OrbitLeft':
      return { ...base, zoom: 1.14, camX: -0.08 * scale * lerp(-1, 1, progress), focus: 0.5, roll: -0.02 * scale * lerp(-1, 1, progress) };
    case 'CraneUp':
      return { ...base, zoom: 1.14, camY: -0.09 * scale * progress, panY: -0.02 * scale * progress, focus: 0 };
    case 'CraneDown':
      return { ...base, zoom: 1.14, camY: 0.09 * scale * progress, panY: 0.02 * scale * progress, focus: 0 };
    case 'Rotate360':
      // One full turn whatever the amount; the zoom keeps the corners mostly inside the picture.
      return { ...base, zoom: 1.45, roll: 2 * Math.PI * cyclic };
    case 'DollyZoom':
      return { ...base, vertigo: 0.4 * scale * progress, focus: 0 };
    case 'Aerial':
      return { ...base, zoom: 1.12, dolly: 0.3 * scale * progress, panY: -0.04 * scale * progress, roll: 0.03 * Math.sin(2 * Math.PI * cyclic), focus: 0 };
    default:
      return base;
  }
}

/** The motions Auto chooses among: every camera motion that moves. */
const AUTO_CHOICES = CAMERA_MOTIONS.map((motion) => motion.value).filter((value) => value !== 'Auto' && value !== 'Static');

/** Gentle, depth-weighted sway: the stand-in for the life a video model gives a still picture. */
function ambient(pose: Pose, t: number, phase: number, strength: number): Pose {
  const wave = Math.sin(2 * Math.PI * (t * 1.5 + phase));
  return { ...pose, bodyX: pose.bodyX + 0.006 * strength * wave, stretchY: pose.stretchY + 0.012 * strength * Math.sin(2 * Math.PI * (t * 2 + phase)) };
}

export interface CameraOptions {
  preset: PosePreset;
  /** The video's number within its preset: copies differ a little in swing and timing. */
  index: number;
  seed: string;
  /** AI-motion style clips get the ambient sway; parallax is a pure camera move. */
  ambient: boolean;
}

/** The camera plan of one video from its preset (parallax path, or camera motion with Auto resolved from the seed). */
export function planCamera({ preset, index, seed, ambient: withAmbient }: CameraOptions): CameraPlan {
  const random = seededRandom('camera', preset.motion_type, preset.camera_path, preset.model, index, seed);
  const variation = between(random, 0.85, 1.15);
  const phase = random();
  const scale = amountScale(preset.motion_amount) * variation;
  const loop = preset.loop >= 1;
  const progressAt = (t: number) => (loop ? outAndBack(t) : eased(t));
  const cyclicAt = (t: number) => (loop ? t : eased(t));
  if (preset.camera_path) {
    const path = preset.camera_path;
    return { name: path, pose: (t) => parallaxPose(path, progressAt(t), cyclicAt(t), PARALLAX_SWING * scale) };
  }
  const known = preset.motion_type === 'Static' || AUTO_CHOICES.includes(preset.motion_type);
  const motion = known ? preset.motion_type : pick(random, AUTO_CHOICES);
  return {
    name: motion,
    pose: (t) => {
      const pose = motionPose(motion, progressAt(t), cyclicAt(t), scale);
      return withAmbient ? ambient(pose, t, phase, amountScale(preset.motion_amount)) : pose;
    },
  };
}
