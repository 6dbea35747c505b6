import type { CreditCheckUser } from '@/lib/affordability';
import type { SessionRef } from '@/machines/account-link/account-link';
import type { HoldQuotedEvent } from '@/machines/project-hold/project-hold.machine';
import type { AdditionalVideo, Batch, ScriptBoardClip } from '@/services/schemas/batch';

// The album machine's public types, apart from its states (batch.machine.ts) and its
// implementations (batch.setup.ts).

export interface BatchInput {
  batchId: string;
  /**
   * SPEC §6 credit check inputs; kept current with `batch.account` (sent by the `account` actor at
   * once when a session is given).
   */
  user?: CreditCheckUser | null;
  credit?: number | null;
  /** The balance is being fetched (a null credit then means "not known yet", not 0). */
  creditLoading?: boolean;
  /** The page is hidden now (no polling until it is shown). */
  hidden?: boolean;
  /** The app's session: the album follows the person and their balance through it (`account`). */
  session?: SessionRef | null;
}

/** The fields of a clip the person changes on the board. */
export type ClipChanges = Partial<Pick<ScriptBoardClip, 'prompt' | 'motion_type' | 'model' | 'camera_path' | 'motion_length' | 'motion_amount'>>;

export interface BatchContext {
  batchId: string;
  /** The album as the server last answered; null before the first answer. */
  batch: Batch | null;
  /** The script board being edited (the saved one until the person changes it). */
  board: ScriptBoardClip[];
  /** Bumped on every board change; equal to savedBoardVersion when the server has this board. */
  boardVersion: number;
  savedBoardVersion: number;
  /** The board version a running save sends. */
  sendingBoardVersion: number;
  /** The board clip each video was made from, parallel to batch.videos ([] when not known). */
  videoClipIds: string[];
  /** The edit section: the sound under the joined video and the extra videos after the clips. */
  audioUrl: string | null;
  additionalVideos: AdditionalVideo[];
  editVersion: number;
  savedEditVersion: number;
  sendingEditVersion: number;
  user: CreditCheckUser | null;
  /** The free balance (what the header shows). */
  credit: number | null;
  /** What the album's open hold still keeps (its `albumHold` child tells): the clips may spend it too. */
  held: number;
  creditLoading: boolean;
  hidden: boolean;
  session: SessionRef | null;
  /** One per click on "Generate videos"; every retry of that click sends it again. */
  idempotencyKey: string | null;
  /** What the last action that failed says (shown on the page); null when nothing failed. */
  error: string | null;
  pollAttempt: number;
}

export type BatchEvent =
  | { type: 'batch.reload' }
  | { type: 'batch.account'; user: CreditCheckUser | null; credit: number | null; creditLoading: boolean }
  | { type: 'batch.visibility'; hidden: boolean }
  | { type: 'batch.generate' }
  | { type: 'batch.delete' }
  | { type: 'board.write' }
  | { type: 'board.save' }
  | { type: 'board.change'; clipId: string; changes: ClipChanges }
  | { type: 'board.move'; clipId: string; offset: number }
  | { type: 'edit.setAudio'; url: string | null }
  | { type: 'edit.addVideo'; video: AdditionalVideo }
  | { type: 'edit.removeVideo'; index: number }
  | { type: 'edit.save' }
  | { type: 'edit.join' }
  | HoldQuotedEvent;

/** What the album tells the page (`actor.on`): a credits refresh, a toast, leaving a deleted album. */
export type BatchEmitted =
  | { type: 'batch.creditsChanged' }
  | { type: 'batch.notify'; tone: 'error'; title: string; message: string }
  | { type: 'batch.deleted'; id: string };
