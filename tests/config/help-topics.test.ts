import { describe, expect, it } from 'vitest';
import { HELP_TOPICS, tutorialVideoUrl } from '@/config/help-topics';

describe('help topics of SPEC §2.10', () => {
  it('has 41 topics indexed 0–40 with the exact titles', () => {
    expect(HELP_TOPICS.map((topic) => topic.index)).toEqual(Array.from({ length: 41 }, (_, index) => index));
    expect(HELP_TOPICS.map((topic) => topic.title)).toEqual([
      'Parallax Motion',
      'AI Motion',
      'Transition to End Frame',
      'OUTPUT SETTINGS',
      'Share',
      'Share Options',
      'Prepare Image',
      'Preview',
      'Quantity',
      'Result Type',
      'Aspect Ratio',
      'Image To Image',
      'Reimagine',
      'Replace Background',
      'Text To Image',
      'Try On',
      'Video Settings',
      'Transition',
      'Video Composer',
      'Edit Image',
      'Character Animate',
      'Audio',
      'Idea for Story',
      'Duration',
      'Edit Video',
      'AI Batch',
      'Lip Sync',
      'Text To Speech',
      'AI Story',
      'Sound Effects',
      'Parallax Batch',
      'Image Elements',
      'FineTune Options',
      'Face Order Index',
      'Text To Music',
      'Restyle Image',
      'Restyle Video',
      'Face Swap',
      'Extend Video',
      'Video Effects',
      'LoRA Finetune',
    ]);
  });

  it('describes the notable topics as SPEC does', () => {
    expect(HELP_TOPICS[0]?.description).toContain('Each selected motion creates one video.');
    expect(HELP_TOPICS[1]?.description).toContain('from a picture or from a text description');
    expect(HELP_TOPICS[33]?.description).toContain('counted 0, 1, 2 from left to right');
    expect(HELP_TOPICS[32]?.description).toContain('5–20 images');
    expect(HELP_TOPICS.every((topic) => topic.description.length > 0)).toBe(true);
  });

  it('names distinct tutorial files per device', () => {
    const desktop = HELP_TOPICS.map((topic) => topic.video_desktop);
    expect(new Set(desktop).size).toBe(41);
    expect(HELP_TOPICS[3]?.video_mobile).toBe('output-settings-mobile.mp4');
    expect(tutorialVideoUrl('https://media.kinora.app/', 'share-desktop.mp4')).toBe(
      'https://media.kinora.app/tutorial/share-desktop.mp4',
    );
  });
});
