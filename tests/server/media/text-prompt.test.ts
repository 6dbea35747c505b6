import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promptHelperResultSchema } from '../../../src/services/schemas/media.ts';
import { asMedia, ledgerRows, postForm, smallPng } from '../helpers/media.ts';
import { signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let user: Awaited<ReturnType<typeof signUpUser>>;
beforeAll(async () => {
  server = await startTestServer();
  user = await signUpUser(server, 'writer');
});
afterAll(async () => {
  await server?.close();
});

async function help(fields: Parameters<typeof postForm>[2]) {
  const answer = await postForm(server, 'text/prompt', fields, { token: user.accessToken });
  return { status: answer.status, detail: answer.body?.detail, result: answer.status === 200 ? promptHelperResultSchema.parse(answer.body?.data) : null };
}

describe('POST text/prompt', () => {
  it('SuggestPrompt expands the prompt and RefinePrompt tightens it', async () => {
    const suggested = await help({ option: 'SuggestPrompt', prompt: 'a cat on a roof', mode: 'image' });
    expect(suggested.status).toBe(200);
    expect(suggested.result?.mode).toBe('SuggestPrompt');
    expect(suggested.result?.prompt.toLowerCase()).toContain('cat on a roof');
    expect(suggested.result?.prompt.length).toBeGreaterThan('a cat on a roof'.length);

    const refined = await help({ option: 'RefinePrompt', prompt: '  the  the dog runs ,fast ', mode: 'image' });
    expect(refined.result?.mode).toBe('RefinePrompt');
    expect(refined.result?.prompt).not.toMatch(/the the|\s,|\s{2}/i);
  });

  it('InspireMe is the default and answers the same for the same input', async () => {
    const first = await help({ prompt: 'ocean' });
    const second = await help({ prompt: 'ocean' });
    expect(first.result?.mode).toBe('InspireMe');
    expect(first.result?.prompt).toBe(second.result?.prompt);
    expect(first.result?.prompt.length).toBeGreaterThan(10);
    const music = await help({ option: 'InspireMe', prompt: 'ocean', mode: 'music' });
    expect(music.result?.prompt).not.toBe(first.result?.prompt);
  });

  it('Image2Prompt describes an uploaded picture (image_url) or one sent with the call (image_file)', async () => {
    const picture = await smallPng(320, 160, '#1040d0');
    const upload = asMedia(await postForm(server, 'image', { image_file: { data: picture, name: 'blue.png', type: 'image/png' } }, { token: user.accessToken }));
    const byUrl = await help({ option: 'Image2Prompt', image_url: upload.items[0]?.url ?? '' });
    expect(byUrl.status).toBe(200);
    expect(byUrl.result?.prompt).toMatch(/blue/i);
    const byFile = await help({ option: 'Image2Prompt', image_file: { data: picture, name: 'blue.png', type: 'image/png' } });
    expect(byFile.result?.prompt).toBe(byUrl.result?.prompt);
  });

  it('Image2Prompt without a picture, an unknown option or mode, and a non-Kinora link are 400', async () => {
    expect(await help({ option: 'Image2Prompt', prompt: 'x' })).toMatchObject({ status: 400, detail: 'Image2Prompt needs an image_url or image_file' });
    expect((await help({ option: 'WriteMyNovel', prompt: 'x' })).status).toBe(400);
    expect((await help({ option: 'InspireMe', mode: 'opera' })).status).toBe(400);
    expect(await help({ option: 'Image2Prompt', image_url: 'https://example.test/x.png' })).toMatchObject({
      status: 400,
      detail: 'image_url is not a file uploaded to Kinora.',
    });
  });

  it('costs nothing and needs a token', async () => {
    await help({ option: 'SuggestPrompt', prompt: 'free' });
    expect((await ledgerRows(server, user.sub)).map((row) => row.kind)).toEqual(['grant']);
    expect((await postForm(server, 'text/prompt', { prompt: 'x' })).status).toBe(401);
  });
});
