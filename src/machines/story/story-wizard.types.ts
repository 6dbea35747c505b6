import type { StoryElementKind, StoryPart, StoryStage, StoryStep } from '@/config/story';
import type { CreditCheckUser } from '@/lib/affordability';
import type { Story, StoryAudio, StoryElement, StoryScene, Storyboard } from '@/services/schemas/story';
import type { ExportFormat } from '@/lib/story-export/cut';
import type { TakePart } from '@/lib/story-takes';

/**
 * The storyWizard machine's input, context and events (ARCHITECTURE: the machine owns the AI Story
 * lifecycle; the screens render its state and send these). Kept apart from the machine so the
 * screens, the rules, the setup and the states can be written side by side.
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
  /** Make one of a part's takes active (an element picture, a scene picture or video): free. */
  | { type: 'take.select'; part: TakePart; partId: string; mediaId: string }
  /** Go back to the take that was active before the part's last regeneration (the newer one stays a take). */
  | { type: 'take.undo'; part: TakePart; partId: string }
  /** Cancel a part's running jobs (refunded). */
  | { type: 'part.cancel'; part: StoryPart }
  | { type: 'error.dismiss' }
  /** Export for editing (Kinora's): download one timeline file of the cut (OTIO, EDL, or the narration's SRT). */
  | { type: 'export.file'; format: ExportFormat }
  /** Download the zip with the timelines and the media (the storyExport child); again after a failure; give it up. */
  | { type: 'export.zip' }
  | { type: 'export.retry' }
  | { type: 'export.cancel' }
  /** Hide the notice (edits merged with another tab's). */
  | { type: 'notice.dismiss' };

/** The paid calls: a step's parts, or the sound. */
export type StoryRequestPart = 'elements' | 'scenes' | 'videos' | 'audio';

export interface StoryRequest {
  part: StoryRequestPart;
  /** The elements or scenes made ([] for the sound). */
  ids: string[];
  /** Credits it costs, as checked before sending. */
  cost: number;
}

/** The take being chosen: one picked (`mediaId`), or the part's last regeneration undone (null). */
export interface TakeChoice {
  part: TakePart;
  partId: string;
  mediaId: string | null;
}

export interface StoryWizardContext {
  storyId: string | null;
  /** The story as the server last answered (its media map and the join); null before one exists. */
  story: Story | null;
  /** The storyboard being edited: the server's until the person changes it. */
  board: Storyboard | null;
  /** The server's storyboard the draft was edited from, and its revision (sent back with a save or a paid call). */
  baseBoard: Storyboard | null;
  revision: string;
  /** Bumped on every board change; equal to savedBoardVersion when the server has this board. */
  boardVersion: number;
  savedBoardVersion: number;
  sendingBoardVersion: number;
  /** The step the person is on, and the one the server has recorded. */
  step: StoryStage;
  savedStep: StoryStage;
  sendingStep: StoryStage;
  /**
   * What the save indicator shows, as the autosave child (story-autosave.machine) last said: a save
   * or a merge's read is on its way; failed saves in a row ("Not saved — retrying") and the last
   * reason. When and whether to save is the child's, never these.
   */
  saving: boolean;
  saveErrors: number;
  saveError: string | null;
  user: CreditCheckUser | null;
  credit: number | null;
  creditLoading: boolean;
  hidden: boolean;
  /** The idea being sent (POST story or PUT story/{id}). */
  ideaFields: IdeaFields | null;
  /** The paid call being made, one Idempotency-Key per click (every retry sends it again). */
  request: StoryRequest | null;
  idempotencyKey: string | null;
  /** The take being chosen (take.select, take.undo). */
  take: TakeChoice | null;
  /** The part whose running jobs are being cancelled. */
  cancelPart: StoryPart | null;
  /** The person went back to a step while the film was being joined: it takes them to the film once it is made. */
  followFilm: boolean;
  /** What the last action that failed says; null when nothing failed. */
  error: string | null;
  /** What the person is told that is not a failure (edits merged with another tab's); null when nothing. */
  notice: string | null;
}

/** Events the machine sends itself and what its children tell it. */
export type StoryWizardInternalEvent =
  /** The poller child's read (story-poller.machine): the story as the server has it now. */
  | { type: 'story.polled'; story: Story }
  /** A paid call was refused (412): the board changed elsewhere since this draft's revision. */
  | { type: 'story.stale' }
  /** The autosave child (story-autosave.machine): time to save — what is there to send? */
  | { type: 'autosave.due' }
  /** It is sending a save, or reading the story for a merge. */
  | { type: 'autosave.saving' }
  /** The save it sent was answered: the story as the server has it now. */
  | { type: 'autosave.saved'; story: Story }
  /** The story as the server has it after a save refused as stale (412): this tab's edits are merged into it. */
  | { type: 'autosave.merged'; story: Story }
  /** A save or a merge's read failed (sent again after a back-off when the failure was the network's or the server's). */
  | { type: 'autosave.failed'; message: string }
  /** No save is on its way and none will start until released: the board may be sent. */
  | { type: 'autosave.held' };

export type StoryWizardMachineEvent = StoryWizardEvent | StoryWizardInternalEvent;

/** What the wizard tells the page (`actor.on`): the new story's id (replace the URL), a credits refresh. */
export type StoryWizardEmitted = { type: 'story.created'; id: string } | { type: 'story.creditsChanged' };
