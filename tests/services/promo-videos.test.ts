import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import { getPromoVideos } from '@/services/promo-videos';
import { server } from '../msw/server';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(async () => 'raw-access-token'),
}));

const video = {
  id: 'promo-1',
  title: 'Parallax in a minute',
  video_url: 'https://media.example/promo-1.mp4',
  thumbnail_url: 'https://media.example/promo-1.jpg',
};

describe('getPromoVideos', () => {
  it('lists the promo videos publicly', async () => {
    let authorization: string | null = 'not read';
    server.use(
      http.get('http://localhost/api/promo-videos', ({ request }) => {
        authorization = request.headers.get('Authorization');
        return HttpResponse.json({ data: [video] });
      }),
    );

    await expect(getPromoVideos()).resolves.toEqual([video]);
    expect(authorization).toBeNull();
    expect(getAccessToken).not.toHaveBeenCalled();
  });

  it('rejects a video without its URL', async () => {
    const { video_url: _dropped, ...withoutUrl } = video;
    server.use(http.get('http://localhost/api/promo-videos', () => HttpResponse.json({ data: [withoutUrl] })));
    await expect(getPromoVideos()).rejects.toMatchObject({
      kind: 'parse',
      message: expect.stringContaining('0.video_url'),
    });
  });
});
