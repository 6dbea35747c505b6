import type { Batch, ScriptBoardClip } from '@/services/schemas/batch';
import type { Media } from '@/services/schemas/media';
import { buildMedia } from '../../services/media.fixtures';

/** A clip of an AI album's board. */
export function buildClip(overrides: Partial<ScriptBoardClip> = {}): ScriptBoardClip {
  return {
    id: 'clip-1',
    image_url: 'http://localhost/api/files/p1.png',
    prompt: 'a lighthouse',
    motion_type: 'PanRight',
    camera_path: null,
    model: 'Auto',
    motion_length: 5,
    motion_amount: 5,
    ...overrides,
  };
}

/** An album as the API answers it (no board, no videos unless given). */
export function buildBatch(overrides: Partial<Batch> = {}): Batch {
  return {
    id: 'album-1',
    batch_type: 'ai',
    title: 'Holiday',
    image_urls: ['http://localhost/api/files/p1.png', 'http://localhost/api/files/p2.png'],
    audio_urls: [],
    concat_video_urls: [],
    additional_videos: [],
    script_board: null,
    videos: [],
    concat: null,
    args: {},
    created_at: '2025-01-01T10:00:00.000Z',
    updated_at: '2025-01-01T10:00:00.000Z',
    ...overrides,
  };
}

/** A two-clip AI board. */
export const TWO_CLIPS: ScriptBoardClip[] = [
  buildClip({ id: 'clip-1', image_url: 'http://localhost/api/files/p1.png', motion_type: 'PanRight', model: 'Auto' }),
  buildClip({ id: 'clip-2', image_url: 'http://localhost/api/files/p2.png', motion_type: 'ZoomIn', model: 'KlingAI' }),
];

/** A clip's video job, queued. */
export function buildClipVideo(id: string, overrides: Partial<Media> = {}): Media {
  return buildMedia({ id, kind: 'video', tool: 'batch-clip', status: 'queue_source', cost: 40, option: 'Auto', args: {}, ...overrides });
}

/** A clip's video job, finished with its file. */
export function buildFinishedVideo(id: string, overrides: Partial<Media> = {}): Media {
  return buildClipVideo(id, {
    status: 'success',
    progress: 100,
    updated_at: '2025-01-01T10:01:00.000Z',
    finished_at: '2025-01-01T10:01:00.000Z',
    items: [
      {
        type: 'video',
        status: 'success',
        url: `http://localhost/api/files/${id}.mp4`,
        thumbnail_url: `http://localhost/api/files/${id}.jpg`,
        file_id: id,
      },
    ],
    ...overrides,
  });
}
