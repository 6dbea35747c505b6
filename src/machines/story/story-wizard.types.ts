import type { StoryElementKind, StoryPart, StoryStep } from '@/config/story';
import type { CreditCheckUser } from '@/lib/credit-check';
import type { StoryAudio, StoryElement, StoryScene, Storyboard } from '@/services/schemas/story';

/**
 * The storyWizard machine's input and events (ARCHITECTURE: the machine owns the AI Story
 * lifecycle; the screens render its state and send these). Kept apart from the machine so the
 * screens and the machine can be written side by side.
 */

export interface StoryWizardInput {
  /** The story to resume (GET story/{id}); null starts a new story at the idea step. */
  storyId: string | null;
  /** SPEC §6 credit check inputs; kept current with `story.account`. */
  user: CreditCheckUser | null;
  credit: number | null;
  creditLoading?: boolean;
  /** The page is hidden now (no polling until it is shown). */
  hidden?: boolean;
}

/** The idea step's form (POST story, or PUT story/{id} for a story that exists). */
export interface IdeaFields {
  idea: string;
  duration: number;
  aspect_ratio: string;
  style: string;
  title?: string;
  /** Reference pictures (uploaded first); only a new story takes them. */
  image_urls?: readonly string[];
}

export type SceneChanges = Partial<Pick<StoryScene, 'text' | 'shot' | 'duration' | 'element_ids'>>;
export type ElementChanges = Partial<Pick<StoryElement, 'kind' | 'name' | 'description'>>;
export type AudioChanges = Partial<Pick<StoryAudio, 'kind' | 'text' | 'voice'>>;
export type BoardSettings = Partial<Pick<Storyboard, 'title' | 'image_model' | 'video_model'>>;

export type StoryWizardEvent =
  | { type: 'story.account'; user: CreditCheckUser | null; credit: number | null; creditLoading: boolean }
  | { type: 'story.visibility'; hidden: boolean }
  /** After a failed load: try again. */
  | { type: 'story.retry' }
  /** Idea step: a new story (POST story) or the changed idea of this one (PUT story/{id}). */
  | { type: 'idea.submit'; fields: IdeaFields }
  /** Write the storyboard again from the idea (asked to confirm first: its scenes and elements are replaced). */
  | { type: 'idea.rewrite' }
  /** Go to a step: any earlier one, or a later one that can be reached. */
  | { type: 'step.goto'; step: StoryStep }
  | { type: 'step.next' }
  | { type: 'scene.change'; sceneId: string; changes: SceneChanges }
  | { type: 'scene.move'; sceneId: string; offset: number }
  | { type: 'scene.add'; afterId?: string }
  | { type: 'scene.remove'; sceneId: string }
  | { type: 'element.change'; elementId: string; changes: ElementChanges }
  | { type: 'element.add'; kind: StoryElementKind }
  | { type: 'element.remove'; elementId: string }
  | { type: 'board.settings'; changes: BoardSettings }
  | { type: 'audio.change'; changes: AudioChanges }
  /** Make a step's parts: `ids` given = exactly those (regenerate one); absent = every one missing, failed or stale. */
  | { type: 'part.generate'; part: 'elements' | 'scenes' | 'videos'; ids?: readonly string[] }
  | { type: 'audio.generate' }
  /** Join the scenes' videos (in scene order) with the sound under them. */
  | { type: 'concat.start' }
  /** Cancel a part's running jobs (refunded). */
  | { type: 'part.cancel'; part: StoryPart }
  | { type: 'error.dismiss' }
  /** Hide the notice (edits merged with another tab's). */
  | { type: 'notice.dismiss' };
