import { storyAudioPrice, storyPartPrice } from '../../../src/lib/story.ts';
import type { Story } from '../../../src/services/schemas/story.ts';

/**
 * What a whole film costs from scratch, from the steps' own prices (every element picture, every
 * scene's picture and video, the sound): the tests' own sum, against which the server's quote and
 * holds are checked.
 */
export function storyFullPrice(story: Story): number {
  const board = story.storyboard;
  return (
    board.elements.length * storyPartPrice(board, 'elements') +
    board.scenes.length * (storyPartPrice(board, 'scenes') + storyPartPrice(board, 'videos')) +
    storyAudioPrice(board.audio.kind)
  );
}
