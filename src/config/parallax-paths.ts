/** Parallax (3D) camera paths, value → label (SPEC §9). Each selected path makes one video. */
export const PARALLAX_CAMERA_PATHS = {
  HorizontalArc: 'Horizontal',
  VerticalArc: 'Vertical',
  Circular: 'Circular',
  StepIn: 'StepIn',
  Cross: 'Cross',
  StepL: 'StepL',
  StepR: 'StepR',
  StepU: 'StepU',
  StepD: 'StepD',
} as const satisfies Record<string, string>;

export type ParallaxCameraPath = keyof typeof PARALLAX_CAMERA_PATHS;

export const PARALLAX_CAMERA_PATH_OPTIONS: readonly { value: ParallaxCameraPath; label: string }[] = (
  Object.keys(PARALLAX_CAMERA_PATHS) as ParallaxCameraPath[]
).map((value) => ({ value, label: PARALLAX_CAMERA_PATHS[value] }));
