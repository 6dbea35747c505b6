import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinetuneKind } from '../../../src/config/finetune.ts';
import { insertFinetune } from '../../../server/src/db/finetunes.ts';
import { insertMedia, newPublicId } from '../../../server/src/db/media.ts';
import { asMedia, balanceOf, hasEnded, pollStatus, postForm, smallPng } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Using a trained model (issue 5): text-to-image with FluxFinetuned and image-to-image with
 * FluxKontextFinetuned take `finetune_id`; the job keeps the id and the learned style, and the
 * public view shows neither. The trained models are written straight into the tables here, so
 * these tests do not wait for a training job.
 */

type User = Awaited<ReturnType<typeof signUpUser>>;

let server: TestServer;
let owner: User;
let stranger: User;
let pictureUrl: string;

const STYLE = { palette: ['#aa3311', '#ffcc66', '#221133'], contrast: 1.2, brightness: 0.05 };

type Training = 'ready' | 'training' | 'failed';

/** A trained model of `kind` for `user`, its training job in the state given. */
async function trainedModel(user: User, kind: FinetuneKind, baseModel: string, training: Training = 'ready'): Promise<string> {
  const ready = training === 'ready';
  return server.db.transaction(async (tx) => {
    const job = await insertMedia(tx, {
      userSub: user.sub,
      kind: 'image',
      tool: 'finetune',
      option: kind,
      status: { ready: 'success_image', training: 'processing_source', failed: 'failed' }[training],
      items: [{ status: ready ? 'success' : training === 'failed' ? 'failed' : 'processing' }],
      finished: training !== 'training',
    });
    // Held by another (imaginary) server for an hour: this server's engine leaves it running.
    if (training === 'training') {
      await tx.query("UPDATE media SET lease_owner = 'elsewhere', lease_expires_at = now() + interval '1 hour' WHERE id = $1", [job.id]);
    }
    const finetune = await insertFinetune(tx, {
      id: newPublicId(),
      userSub: user.sub,
      mediaId: job.id,
      name: 'My look',
      option: kind,
      baseModel,
      triggerWord: 'mylook',
      imageCount: 5,
    });
    if (ready) await tx.query('UPDATE finetunes SET style = $2 WHERE id = $1', [finetune.id, JSON.stringify(STYLE)]);
    return finetune.id;
  });
}

async function storedArgs(id: string): Promise<Record<string, unknown>> {
  const { rows } = await server.db.query<{ args: Record<string, unknown> }>('SELECT args FROM media WHERE id = $1', [id]);
  return rows[0]?.args ?? {};
}

beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 50, pollIntervalMs: 100 } });
  owner = await signUpUser(server, 'trainer');
  stranger = await signUpUser(server, 'stranger');
  const upload = await postForm(server, 'image', { image_file: { data: await smallPng(80, 60), name: 'p.png', type: 'image/png' } }, { token: owner.accessToken });
  pictureUrl = asMedia(upload).items[0]?.url ?? '';
  // Both users' rows exist before the trained models refer to them.
  expect((await callApi(server, 'credits/get', { token: stranger.accessToken })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

describe('image calls with a trained model', () => {
  it('text-to-image with FluxFinetuned keeps the id and the style, renders, and the public view hides them', async () => {
    const finetuneId = await trainedModel(owner, 'FluxFinetune', 'FluxFinetuned');
    const answer = await postForm(
      server,
      'image/text-2-image',
      { prompt: 'mylook portrait of a fox', option: 'FluxFinetuned', finetune_id: finetuneId },
      { token: owner.accessToken },
    );
    expect(answer.status, answer.body?.detail).toBe(200);
    const media = asMedia(answer);
    expect(media).toMatchObject({ option: 'FluxFinetuned', cost: 8 });
    expect(await storedArgs(media.id)).toEqual({
      option: 'FluxFinetuned',
      prompt: 'mylook portrait of a fox',
      aspect_ratio: '1:1',
      finetune_id: finetuneId,
      finetune_style: STYLE,
    });
    expect(await pollStatus(server, media.id, hasEnded)).toBe('success_image');

    await server.db.query("UPDATE media SET visibility = 'public' WHERE id = $1", [media.id]);
    const view = await callApi(server, `media/${media.id}/view`);
    expect(view.status).toBe(200);
    expect(asMedia(view).args).toEqual({ option: 'FluxFinetuned', prompt: 'mylook portrait of a fox', aspect_ratio: '1:1' });
    expect(JSON.stringify(view.body)).not.toContain('finetune');
  });

  it('image-to-image with FluxKontextFinetuned takes a Kontext trained model', async () => {
    const finetuneId = await trainedModel(owner, 'FluxKontextFinetune', 'FluxKontextFinetuned');
    const answer = await postForm(
      server,
      'image/image-2-image',
      { prompt: 'in my look', image_url: pictureUrl, option: 'FluxKontextFinetuned', finetune_id: finetuneId },
      { token: owner.accessToken },
    );
    expect(answer.status, answer.body?.detail).toBe(200);
    const args = await storedArgs(asMedia(answer).id);
    expect(args).toMatchObject({ option: 'FluxKontextFinetuned', finetune_id: finetuneId, finetune_style: STYLE });
  });

  it.each<[string, () => Promise<string>]>([
    ["someone else's trained model", async () => trainedModel(stranger, 'FluxFinetune', 'FluxFinetuned')],
    ['a model still training', async () => trainedModel(owner, 'FluxFinetune', 'FluxFinetuned', 'training')],
    ['a model whose training failed', async () => trainedModel(owner, 'FluxFinetune', 'FluxFinetuned', 'failed')],
    ['a model trained for the other base model', async () => trainedModel(owner, 'FluxKontextFinetune', 'FluxKontextFinetuned')],
    ['an unknown id', async () => 'no-such-model'],
  ])('refuses %s with 400 and charges nothing', async (_name, make) => {
    const finetuneId = await make();
    const before = await balanceOf(server, owner.sub);
    const answer = await postForm(
      server,
      'image/text-2-image',
      { prompt: 'x', option: 'FluxFinetuned', finetune_id: finetuneId },
      { token: owner.accessToken },
    );
    expect(answer.status).toBe(400);
    expect(answer.body?.detail).toBe('This trained model is not ready or not yours.');
    expect(await balanceOf(server, owner.sub)).toBe(before);
  });

  it('ignores finetune_id for models that take no trained model', async () => {
    const finetuneId = await trainedModel(owner, 'FluxFinetune', 'FluxFinetuned');
    const answer = await postForm(server, 'image/text-2-image', { prompt: 'plain', option: 'Seedream', finetune_id: finetuneId }, { token: owner.accessToken });
    expect(answer.status, answer.body?.detail).toBe(200);
    expect(await storedArgs(asMedia(answer).id)).toEqual({ option: 'Seedream', prompt: 'plain', aspect_ratio: '1:1' });
  });
});
