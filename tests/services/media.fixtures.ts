import type { Media } from '@/services/schemas/media';
import type { ProcessingStatus } from '@/services/schemas/media';

/** A media item as the API answers it, with the fields a test cares about overridden. */
export function buildMedia(overrides: Partial<Media> = {}): Media {
  return {
    id: 'media-1',
    version: '3',
    base_url: '',
    kind: 'image',
    tool: 'text-to-image',
    status: 'queue_source',
    progress: 0,
    option: 'Seedream',
    cost: 4,
    refunded: false,
    error: null,
    logo_variant: false,
    asset_id: null,
    visibility: 'private',
    title: '',
    description: '',
    shared_at: null,
    image_urls: [],
    args: { prompt: 'a red fox', option: 'Seedream', aspect_ratio: '1:1' },
    created_at: '2025-01-01T10:00:00.000Z',
    updated_at: '2025-01-01T10:00:00.000Z',
    finished_at: null,
    held: false,
    items: [],
    files: [],
    ...overrides,
  };
}

/** A finished image job with one result file. */
export function buildFinishedMedia(overrides: Partial<Media> = {}): Media {
  return buildMedia({
    status: 'success_image',
    progress: 100,
    updated_at: '2025-01-01T10:00:09.000Z',
    finished_at: '2025-01-01T10:00:09.000Z',
    items: [
      {
        type: 'image',
        status: 'success',
        url: 'http://localhost/api/files/f1?expires=1&signature=abc',
        thumbnail_url: 'http://localhost/api/files/t1?expires=1&signature=def',
        file_id: 'f1',
      },
    ],
    ...overrides,
  });
}

/** A processing-status answer. */
export function buildStatus(overrides: Partial<ProcessingStatus> = {}): ProcessingStatus {
  return {
    id: 'media-1',
    status: 'processing_source',
    progress: 40,
    items: [{ status: 'processing' }],
    updated_at: '2025-01-01T10:00:05.000Z',
    held: false,
    queue_position: null,
    ...overrides,
  };
}
