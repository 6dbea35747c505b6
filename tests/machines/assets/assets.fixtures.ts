import type { Asset } from '@/services/schemas/assets';

/** An asset as the API answers it, with the fields a test cares about overridden. */
export function buildAsset(id: string, overrides: Partial<Asset> = {}): Asset {
  return {
    id,
    name: `Asset ${id}`,
    description: '',
    fields: {},
    media_count: 0,
    cover_url: null,
    created_at: '2025-02-01T10:00:00.000Z',
    updated_at: '2025-02-01T10:00:00.000Z',
    ...overrides,
  };
}
