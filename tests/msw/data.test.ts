import { describe, expect, it } from 'vitest';
import { mediaSchema } from '@/services/schemas/media';
import { publicContentSchema } from '@/services/schemas/content';
import { creditHistoryEntrySchema } from '@/services/schemas/payments';
import { answer, assetRecord, callOf, finishedItem, ledgerRow, mediaRecord, publicContent, signedFileUrl, tick } from './data';

// The fakes answer what the app's own zod schemas accept: a factory that drifts from the API fails here first.
describe('the fake backend’s data helpers', () => {
  it('builds a queued job the media schema accepts, with overrides winning', () => {
    const media = mediaRecord('m7', '2025-01-01T12:00:01.000Z', { kind: 'video', tool: 'ai-motion' });
    expect(media).toMatchObject({ id: 'm7', kind: 'video', tool: 'ai-motion', status: 'queue_source', items: [], created_at: '2025-01-01T12:00:01.000Z' });
    expect(mediaSchema.safeParse(media).success).toBe(true);
    const done = mediaRecord('m8', media.created_at, {
      status: 'success_image',
      items: [finishedItem('image', signedFileUrl('m8-result.png'), { file_id: 'm8-result' })],
    });
    expect(mediaSchema.safeParse(done).success).toBe(true);
    expect(done.items[0]).toEqual({ type: 'image', status: 'success', url: signedFileUrl('m8-result.png'), thumbnail_url: null, file_id: 'm8-result' });
  });

  it('moves a store’s clock a second per answer', () => {
    const store = { clock: Date.parse('2025-02-01T12:00:00Z') };
    expect(tick(store)).toBe('2025-02-01T12:00:01.000Z');
    expect(tick(store)).toBe('2025-02-01T12:00:02.000Z');
  });

  it('builds assets, ledger rows and shared content with the API’s defaults', () => {
    expect(assetRecord('asset-1', '2025-02-01T12:00:01.000Z', { name: 'Fox' })).toEqual({
      id: 'asset-1',
      name: 'Fox',
      description: '',
      fields: {},
      created_at: '2025-02-01T12:00:01.000Z',
      updated_at: '2025-02-01T12:00:01.000Z',
    });
    const debit = ledgerRow('ledger-1', 90, '2025-03-01T12:01:00.000Z', { amount: -10, reason: 'Text to Image' });
    expect(debit.kind).toBe('debit');
    expect(ledgerRow('ledger-2', 110, debit.created_at, { amount: 20, reason: 'Gift' }).kind).toBe('grant');
    expect(creditHistoryEntrySchema.safeParse(debit).success).toBe(true);
    const shared = publicContent(3, { title: 'Dunes' });
    expect(shared).toMatchObject({ id: 'c3', title: 'Dunes', url: 'http://localhost/api/files/c3.png', shared_at: '2025-01-01T00:03:00.000Z' });
    expect(publicContentSchema.safeParse(shared).success).toBe(true);
  });

  it('answers in the { data } envelope and names calls without the /api/ prefix', async () => {
    expect(await answer({ id: 'x' }).json()).toEqual({ data: { id: 'x' } });
    expect(answer({}, { status: 201 }).status).toBe(201);
    expect(callOf(new Request('http://localhost/api/media/m1?x=1', { method: 'PUT' }))).toBe('PUT media/m1');
  });
});
