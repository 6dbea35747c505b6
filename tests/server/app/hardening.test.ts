import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, smallPng } from '../helpers/media.ts';
import { DETAILS } from '../../../server/src/routes/messages.ts';
import { CONTACT_MESSAGE_MIN } from '../../../src/config/contact.ts';
import { CONTACT_TEXTS } from '../../../src/config/contact-texts.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Issue 17's input hardening: control characters and deep JSON refused with a 400 at the
 * boundary, no-store on every signed-in answer, and early refusals of uploads that always reach
 * the sender as their JSON message.
 */

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = (await signUpUser(server, 'hardening')).accessToken;
});
afterAll(async () => {
  await server?.close();
});

const NUL = '\u0000';

describe('control characters in any text field', () => {
  it.each([
    ['a contact message', 'users/contact-us', { name: 'Ann', email: 'ann@example.test', message: `Hello there${NUL}, Kinora team` }],
    ['a Latest search keyword', 'users/latest-contents', { keyword: `cat${NUL}` }],
    ['an asset name', 'asset', { name: `My${NUL}asset` }],
    ['an asset field key', 'asset', { name: 'Keys', fields: { [`a${NUL}b`]: 1 } }],
    ['a nested asset field value', 'asset', { name: 'Nested', fields: { list: [{ deep: `bell\u0007` }] } }],
  ])('answers 400 with a message for %s', async (_what, path, json) => {
    const answer = await callApi(server, path, { method: 'POST', token, json });
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toMatch(/control character/);
  });

  it('answers 400 for a NUL in a path parameter (GET coupon/%00) and in a query', async () => {
    const coupon = await callApi(server, 'coupon/%00', { token });
    expect(coupon.status).toBe(400);
    expect(coupon.body?.detail).toMatch(/control character/);
    const media = await callApi(server, `media?limit=5&search=${encodeURIComponent(NUL)}`, { token });
    expect(media.status).toBe(400);
  });

  it('answers 400 for a control character in a multipart text field', async () => {
    const answer = await postForm(server, 'image', { image_file: { data: await smallPng(), name: `a${NUL}.png`, type: 'image/png' }, note: `x${NUL}` }, { token });
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toMatch(/control character/);
  });

  it('still takes tabs and line breaks in a message', async () => {
    const answer = await callApi(server, 'users/contact-us', {
      method: 'POST',
      json: { name: 'Ann', email: 'ann@example.test', message: 'First line,\r\n\tsecond line.' },
    });
    expect(answer.status).toBe(201);
  });
});

describe("contact messages (issue 17: the web form's rules on the server)", () => {
  it.each(['x', `   ${'a'.repeat(CONTACT_MESSAGE_MIN - 1)}    `])('refuses the message "%s" with the form\'s own words', async (message) => {
    const answer = await callApi(server, 'users/contact-us', { method: 'POST', json: { name: 'Ann', email: 'ann@example.test', message } });
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toContain(CONTACT_TEXTS.messageTooShort);
  });

  it('refuses a name of spaces and takes a message of exactly the minimum', async () => {
    const blank = await callApi(server, 'users/contact-us', { method: 'POST', json: { name: '   ', email: 'ann@example.test', message: 'Long enough message.' } });
    expect(blank.status).toBe(400);
    expect(blank.body?.detail).toContain(CONTACT_TEXTS.nameRequired);
    const exact = await callApi(server, 'users/contact-us', { method: 'POST', json: { name: 'Ann', email: 'ann@example.test', message: 'm'.repeat(CONTACT_MESSAGE_MIN) } });
    expect(exact.status).toBe(201);
  });
});

describe('deeply nested JSON', () => {
  it('answers 400 for asset fields nested 5,000 deep', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const response = await fetch(`${server.url}/api/asset`, {
      method: 'POST',
      headers: { 'X-Api-Key': server.apiKey, Authorization: token, 'Content-Type': 'application/json' },
      body: `{"name":"Deep","fields":${deep}}`,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/nested/);
  });

  it('takes ordinary nesting', async () => {
    const answer = await callApi(server, 'asset', { method: 'POST', token, json: { name: 'Shallow', fields: { a: { b: { c: [1, 2] } } } } });
    expect(answer.status).toBe(201);
  });
});

describe('Cache-Control on signed-in answers', () => {
  it.each(['credits/get', 'credits/history', 'media?limit=5', 'asset'])('sends no-store on GET %s', async (path) => {
    const answer = await callApi(server, path, { token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('sends no-store on a signed-in refusal too', async () => {
    const answer = await callApi(server, 'media/not-a-media-id', { token });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });
});

describe('an upload refused before its body is read', () => {
  it('reaches the sender as its JSON message, 20 times out of 20', async () => {
    const owner = await signUpUser(server, 'assetowner');
    const asset = await callApi<{ id: string }>(server, 'asset', { method: 'POST', token: owner.accessToken, json: { name: 'Theirs' } });
    const assetId = asset.body?.data?.id ?? '';
    // Big enough that the refusal is sent while most of the body is still on its way.
    const png = Buffer.concat([await smallPng(), Buffer.alloc(512 * 1024, 7)]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        postForm(server, `image?asset_id=${encodeURIComponent(assetId)}`, { image_file: { data: png, name: 'p.png', type: 'image/png' } }, { token }).catch(
          (error: unknown) => ({ status: 0, body: { detail: String(error) } }),
        ),
      ),
    );
    expect(answers.map((answer) => [answer.status, typeof answer.body?.detail])).toEqual(Array.from({ length: 20 }, () => [400, 'string']));
  });

  it('keeps the connection and reads the rest of the body, so the next request on it is answered', async () => {
    const owner = await signUpUser(server, 'assetowner');
    const asset = await callApi<{ id: string }>(server, 'asset', { method: 'POST', token: owner.accessToken, json: { name: 'Theirs' } });
    const boundary = 'kinora-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image_file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const body = Buffer.concat([head, await smallPng(), Buffer.alloc(256 * 1024, 7), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const { port } = new URL(server.url);
    const refused = [
      `POST /api/image?asset_id=${encodeURIComponent(asset.body?.data?.id ?? '')} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `X-Api-Key: ${server.apiKey}`,
      `Authorization: ${token}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${body.length}`,
      '',
      '',
    ].join('\r\n');
    const next = `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Api-Key: ${server.apiKey}\r\n\r\n`;
    const received = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (text.includes('"ok":true')) socket.destroy();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', () => undefined);
      socket.write(Buffer.concat([Buffer.from(refused), body, Buffer.from(next)]));
    });
    expect(received).toMatch(/^HTTP\/1\.1 400/);
    expect(received).toContain(DETAILS.assetUnknownForJob);
    expect(received).toContain('"ok":true');
  });
});
