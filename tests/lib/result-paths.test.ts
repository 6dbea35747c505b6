import { describe, expect, it } from 'vitest';
import { parsePosePreset } from '@/lib/pose-preset';
import { batchFolders, gifPath, presetFolderName, thumbnailPath, usesBaseUrl, videoPath } from '@/lib/result-paths';

const BASE = 'https://cdn.example/u1/m1';

describe('batchFolders (SPEC §3 result paths)', () => {
  it.each<[string, unknown, string[]]>([
    ['quantity 1: no number', { motion_type: 'Zoom in' }, [`${BASE}/batch/2/Zoom in`]],
    [
      'quantity 3: numbered 1…3',
      { motion_type: 'Auto', quantity: 3 },
      [`${BASE}/batch/2/Auto1`, `${BASE}/batch/2/Auto2`, `${BASE}/batch/2/Auto3`],
    ],
    ['Parallax: named after the camera path', { MotionType: 'Parallax', Params: 'CameraPath=HorizontalArc' }, [`${BASE}/batch/2/HorizontalArc`]],
    [
      'Parallax with a quantity',
      { motion_type: 'Parallax', camera_path: 'StepIn', quantity: 2 },
      [`${BASE}/batch/2/StepIn1`, `${BASE}/batch/2/StepIn2`],
    ],
    ['Parallax without a camera path keeps the motion type', { motion_type: 'Parallax' }, [`${BASE}/batch/2/Parallax`]],
    ['a camera path on another motion type is ignored', { motion_type: 'Static', camera_path: 'Cross' }, [`${BASE}/batch/2/Static`]],
    ['defaults: Auto', {}, [`${BASE}/batch/2/Auto`]],
  ])('%s', (_, raw, expected) => {
    const [preset] = parsePosePreset(raw);
    expect(batchFolders(BASE, 2, preset!)).toEqual(expected);
  });

  it('does not double a trailing slash of the base', () => {
    expect(batchFolders(`${BASE}/`, 'v7', { motion_type: 'Auto', camera_path: null, quantity: 1 })).toEqual([
      `${BASE}/batch/v7/Auto`,
    ]);
  });

  it('names the folder', () => {
    expect(presetFolderName({ motion_type: 'Parallax', camera_path: 'Circular' })).toBe('Circular');
    expect(presetFolderName({ motion_type: 'Auto', camera_path: 'Circular' })).toBe('Auto');
  });
});

describe('file paths in a folder', () => {
  const folder = `${BASE}/batch/2/Auto1`;
  it.each([
    [thumbnailPath(folder), `${folder}/thumbnail/thumbnail.jpg`],
    [thumbnailPath(`${folder}/`), `${folder}/thumbnail/thumbnail.jpg`],
    [videoPath(folder, 'video'), `${folder}/video.mp4`],
    [videoPath(folder, 'video', true), `${folder}/video_logo.mp4`],
    [gifPath(folder, 'video'), `${folder}/video.gif`],
    [gifPath(folder, 'video', true), `${folder}/video_logo.gif`],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('usesBaseUrl', () => {
  it.each([
    ['2', true],
    ['3', true],
    [3, true],
    ['1', false],
    ['4', false],
    [null, false],
    [undefined, false],
  ] as const)('version %s → %s', (version, expected) => {
    expect(usesBaseUrl(version)).toBe(expected);
  });
});
