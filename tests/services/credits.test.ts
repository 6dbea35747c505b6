import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken } from '@/services/auth';
import type * as AuthModule from '@/services/auth';
import { getCredits } from '@/services/credits';
import { server } from '../msw/server';

vi.mock('@/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthModule>()),
  getAccessToken: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(getAccessToken).mockReset().mockResolvedValue('raw-access-token');
});

describe('getCredits', () => {
  it("reads the signed-in user's balance with their token", async () => {
    let authorization: string | null = null;
    server.use(
      http.get('http://localhost/api/credits/get', ({ request }) => {
        authorization = request.headers.get('Authorization');
        return HttpResponse.json({ data: { credit: 42 } });
      }),
    );

    await expect(getCredits()).resolves.toEqual({ credit: 42 });
    expect(authorization).toBe('raw-access-token');
  });

  it('treats a missing credit as 0 (SPEC §3)', async () => {
    server.use(http.get('http://localhost/api/credits/get', () => HttpResponse.json({ data: {} })));
    await expect(getCredits()).resolves.toEqual({ credit: 0 });
  });

  it('makes exactly one call per attempt: the retry belongs to the machine', async () => {
    let calls = 0;
    server.use(
      http.get('http://localhost/api/credits/get', () => {
        calls += 1;
        return HttpResponse.json({ detail: 'Credits unavailable' }, { status: 503 });
      }),
    );

    await expect(getCredits()).rejects.toMatchObject({ message: 'Credits unavailable', status: 503 });
    expect(calls).toBe(1);
  });

  it('is refused while signed out', async () => {
    vi.mocked(getAccessToken).mockResolvedValue(null);
    await expect(getCredits()).rejects.toMatchObject({
      message: 'User needs to be authenticated to call this API.',
    });
  });
});
