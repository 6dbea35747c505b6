import { describe, expect, it } from 'vitest';
import { labelJobHistory, readJobHistory } from '@/lib/job-history';
import type { JobHistorySource } from '@/lib/job-history';

describe('readJobHistory (SPEC §3 job history, newest first)', () => {
  it.each<[string, JobHistorySource, ReturnType<typeof readJobHistory>]>([
    [
      'history: runs reversed, numbered in time order, string results as lists',
      {
        history: [
          { results: 'https://f/a.png', args: { option: 'Seedream', aspect_ratio: '1:1', seed: 4 } },
          { results: ['https://f/b.png', 'https://f/c.png'], args: { option: 'Flux1.1Pro' } },
        ],
      },
      [
        { run: 2, results: ['https://f/b.png', 'https://f/c.png'], args: { option: 'Flux1.1Pro' } },
        { run: 1, results: ['https://f/a.png'], args: { option: 'Seedream', aspect_ratio: '1:1' } },
      ],
    ],
    [
      'image_history',
      { image_history: [{ results: ['i1'], args: { option: 'NanoBanana' } }] },
      [{ run: 1, results: ['i1'], args: { option: 'NanoBanana' } }],
    ],
    [
      'video_history with effect',
      { video_history: [{ results: 'v1', args: { option: 'PikaEffects', effect: 'melt' } }] },
      [{ run: 1, results: ['v1'], args: { option: 'PikaEffects', effect: 'melt' } }],
    ],
    [
      'audio_history without args',
      { audio_history: [{ results: ['a1', 'a2'] }] },
      [{ run: 1, results: ['a1', 'a2'], args: {} }],
    ],
    [
      'an empty history falls through to the next one',
      { history: [], audio_history: [{ results: 'a1', args: { voice: 'Aria' } }] },
      [{ run: 1, results: ['a1'], args: { voice: 'Aria' } }],
    ],
    [
      'no history: top-level results and args',
      { results: ['r1', 'r2'], args: { option: 'Seedream', voice: 7 } },
      [{ run: 1, results: ['r1', 'r2'], args: { option: 'Seedream' } }],
    ],
    ['no history, a single result string', { results: 'r1' }, [{ run: 1, results: ['r1'], args: {} }]],
    ['nothing at all', {}, []],
    ['empty results', { results: '' }, []],
  ])('%s', (_, source, expected) => {
    expect(readJobHistory(source)).toEqual(expected);
  });
});

describe('labelJobHistory', () => {
  it('labels every result of every run, newest run first', () => {
    const runs = readJobHistory({
      audio_history: [
        { results: ['a1'], args: { voice: 'Aria' } },
        { results: ['b1', 'b2'], args: { option: 'Text2Speech' } },
      ],
    });
    expect(labelJobHistory(runs, 'audio')).toEqual([
      { url: 'b1', run: 2, index: 1, label: '2.1.Text2Speech' },
      { url: 'b2', run: 2, index: 2, label: '2.2.Text2Speech' },
      { url: 'a1', run: 1, index: 1, label: '1.1.Audio_Aria' },
    ]);
  });
});
