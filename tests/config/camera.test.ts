import { describe, expect, it } from 'vitest';
import { CAMERA_MOTIONS } from '@/config/camera-motions';
import { PARALLAX_CAMERA_PATHS, PARALLAX_CAMERA_PATH_OPTIONS } from '@/config/parallax-paths';

describe('camera motions', () => {
  it('has the 17 presets of SPEC §9 in order', () => {
    expect(CAMERA_MOTIONS.map((motion) => motion.label)).toEqual([
      'Auto',
      'Static',
      'Crane up',
      'Crane down',
      'Tilt up',
      'Tilt down',
      'Pan right',
      'Pan left',
      'Roll right',
      'Roll left',
      'Orbit right',
      'Orbit left',
      'Rotate 360',
      'Dolly zoom',
      'Zoom in',
      'Zoom out',
      'Aerial',
    ]);
  });

  it('carries prompt texts such as "Camera pan right"', () => {
    expect(CAMERA_MOTIONS.find((motion) => motion.label === 'Pan right')?.prompt).toBe('Camera pan right');
    expect(CAMERA_MOTIONS.find((motion) => motion.label === 'Zoom out')?.prompt).toBe('Camera zoom out');
    // Every preset but Auto steers the camera, so it adds text to the prompt.
    expect(CAMERA_MOTIONS.filter((motion) => motion.prompt === '').map((motion) => motion.value)).toEqual(['Auto']);
    expect(new Set(CAMERA_MOTIONS.map((motion) => motion.value)).size).toBe(CAMERA_MOTIONS.length);
  });
});

describe('parallax camera paths', () => {
  it('maps values to labels as SPEC §9 does', () => {
    expect(PARALLAX_CAMERA_PATHS).toEqual({
      HorizontalArc: 'Horizontal',
      VerticalArc: 'Vertical',
      Circular: 'Circular',
      StepIn: 'StepIn',
      Cross: 'Cross',
      StepL: 'StepL',
      StepR: 'StepR',
      StepU: 'StepU',
      StepD: 'StepD',
    });
    expect(PARALLAX_CAMERA_PATH_OPTIONS[0]).toEqual({ value: 'HorizontalArc', label: 'Horizontal' });
    expect(PARALLAX_CAMERA_PATH_OPTIONS).toHaveLength(9);
  });
});
