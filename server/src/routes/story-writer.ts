import type { Storyboard } from '../../../src/services/schemas/story.ts';
import type { RenderProvider } from '../render/provider.ts';
import { writeStoryboard, type StoryboardInput } from './story-board.ts';

/** The most words the language model's telling of an idea may have (a minute of film reads in ~150). */
const TOLD_MAX_WORDS = 400;

/**
 * The AI Story board writer: with a provider that has a language model (fal), the idea is first
 * told as a short film — one plain sentence per scene, characters and places named — and Kinora's
 * own writer (story-board.ts) turns that telling into scenes, elements and narration, so the board
 * always has the shape the wizard needs whatever the model answers. Without one, or when the model
 * fails, the idea is written as it is.
 */
export async function writeStoryboardFor(provider: RenderProvider, input: StoryboardInput): Promise<Storyboard> {
  if (!provider.writeText || input.idea.trim() === '') return writeStoryboard(input);
  const scenes = Math.max(1, Math.round(input.duration / 5));
  try {
    const told = await provider.writeText({
      system:
        `You are a film writer. Tell the user's idea as a short film of about ${scenes} scenes: one plain sentence per scene, ` +
        'in order, each naming who is in it and where. Answer with the sentences only, no titles, no lists, no quotes.',
      prompt: input.idea,
    });
    const words = told.replace(/\s+/g, ' ').trim().split(' ').slice(0, TOLD_MAX_WORDS).join(' ');
    if (words.length < 10) return writeStoryboard(input);
    return writeStoryboard({ ...input, idea: words });
  } catch {
    return writeStoryboard(input);
  }
}
