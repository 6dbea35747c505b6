import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import { redeemCoupon } from '@/services/coupon';
import { server } from '../msw/server';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(getAccessToken).mockReset().mockResolvedValue('raw-access-token');
});

describe('redeemCoupon', () => {
  it('redeems the code in the path, encoded, with the user token', async () => {
    const seen: { code: string | readonly string[] | undefined; url: string; authorization: string | null }[] = [];
    server.use(
      http.get('http://localhost/api/coupon/:code', ({ params, request }) => {
        seen.push({ code: params.code, url: request.url, authorization: request.headers.get('Authorization') });
        return HttpResponse.json({ data: { code: 'SPRING 50/50', credits: 50 } });
      }),
    );

    await expect(redeemCoupon('SPRING 50/50')).resolves.toEqual({ code: 'SPRING 50/50', credits: 50 });

    expect(seen[0]!.url).toBe('http://localhost/api/coupon/SPRING%2050%2F50');
    expect(seen[0]!.code).toBe('SPRING 50/50');
    expect(seen[0]!.authorization).toBe('raw-access-token');
  });

  it('passes on the server message when the code is refused', async () => {
    server.use(
      http.get('http://localhost/api/coupon/:code', () =>
        HttpResponse.json({ detail: 'Coupon already redeemed' }, { status: 409 }),
      ),
    );
    await expect(redeemCoupon('USED')).rejects.toMatchObject({ message: 'Coupon already redeemed', status: 409 });
  });

  it('needs only the credits in the answer', async () => {
    server.use(http.get('http://localhost/api/coupon/:code', () => HttpResponse.json({ data: { credits: 25 } })));
    await expect(redeemCoupon('BARE')).resolves.toEqual({ credits: 25 });
  });

  it('rejects an answer without credits', async () => {
    server.use(http.get('http://localhost/api/coupon/:code', () => HttpResponse.json({ data: { code: 'X' } })));
    await expect(redeemCoupon('X')).rejects.toMatchObject({ kind: 'parse', message: expect.stringContaining('credits') });
  });
});
