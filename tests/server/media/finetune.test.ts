import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finetuneListSchema, type Finetune } from '../../../src/services/schemas/finetune.ts';
import { asMedia, balanceOf, fetchFile, hasEnded, ledgerRows, PNG_MAGIC, pollStatus, postForm, smallPng, type FormFields } from '../helpers/media.ts';
import { callApi, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/** LoRA fine-tunes against the real server: the training job, its debit, the list, and using a trained model. */

let server: TestServer;
type User = Awaited<ReturnType<typeof signUpUser>>;
let owner: User;
let other: User;
let ownerPictures: string[];

const NOT_USABLE = 'This trained model is not ready or not yours.';

async function uploadPictures(user: User, count: number): Promise<string[]> {
  const links: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const colour = `#${(0x203040 + index * 0x151515).toString(16).slice(-6)}`;
    const upload = await postForm(server, 'image', { image_file: { data: await smallPng(64, 64, colour), name: `p${index}.png`, type: 'image/png' } }, { token: user.accessToken });
    expect(upload.status).toBe(200);
    links.push(asMedia(upload).items[0]?.url ?? '');
  }
  return links;
}

/** Credits enough for a few trainings (240 each; a new account has 100). */
async function grant(user: User, amount: number): Promise<void> {
  // The account's row (and its starting credits) is made by its first signed-in call.
  expect((await callApi(server, 'credits/get', { token: user.accessToken })).status).toBe(200);
  await server.db.query("INSERT INTO credit_ledger (user_sub, amount, kind, reason) VALUES ($1, $2, 'grant', 'test grant')", [user.sub, amount]);
}

async function train(user: User, fields: FormFields, headers: Record<string, string> = {}) {
  return postForm(server, 'finetune', fields, { token: user.accessToken, headers });
}

async function trainedModels(user: User): Promise<Finetune[]> {
  const answer = await callApi(server, 'finetune', { token: user.accessToken });
  expect(answer.status).toBe(200);
  return finetuneListSchema.parse(answer.body?.data).items;
}

/** Waits for the model's training to end, answering it as GET finetune lists it then. */
async function whenTrained(user: User, mediaId: string): Promise<Finetune> {
  await pollStatus(server, mediaId, hasEnded);
  const model = (await trainedModels(user)).find((item) => item.media_id === mediaId);
  if (!model) throw new Error(`no trained model for job ${mediaId}`);
  return model;
}

beforeAll(async () => {
  server = await startTestServer({ jobs: { durationMs: 400, pollIntervalMs: 100 } });
  [owner, other] = await Promise.all([signUpUser(server, 'trainer'), signUpUser(server, 'rival')]);
  await Promise.all([grant(owner, 2000), grant(other, 1000)]);
  ownerPictures = await uploadPictures(owner, 11);
});

afterAll(async () => {
  await server?.close();
});

describe('POST finetune checks the request against the kind (SPEC §5 image counts)', () => {
  it.each([
    ['Flux with 4 pictures', { option: 'FluxFinetune', name: 'x', count: 4 }, 'Flux Fine-tune takes 5 to 20 pictures. You sent 4.'],
    ['Flux Pro with 11 pictures', { option: 'FluxProFinetune', name: 'x', count: 11 }, 'Flux Pro Fine-tune takes 1 to 10 pictures. You sent 11.'],
    [
      'Kontext with an odd count',
      { option: 'FluxKontextFinetune', name: 'x', count: 3, prompt: 'make it sepia' },
      'Flux Kontext Fine-tune takes 1 to 20 input/output pairs: an even number of pictures, input then output. You sent 3.',
    ],
    ['Kontext without a prompt', { option: 'FluxKontextFinetune', name: 'x', count: 2 }, 'Flux Kontext Fine-tune needs a prompt that says what the pairs teach (prompt).'],
    ['an unknown kind', { option: 'FluxFinetuned', name: 'x', count: 5 }, 'option must be one of FluxFinetune, FluxProFinetune, FluxKontextFinetune.'],
    ['no name', { option: 'FluxFinetune', name: ' ', count: 5 }, 'name must be 1 to 40 characters.'],
    ['a long trigger word', { option: 'FluxFinetune', name: 'x', count: 5, trigger_word: 'w'.repeat(31) }, 'trigger_word can be at most 30 characters.'],
  ])('refuses %s (400), debiting nothing', async (_name, request, detail) => {
    const { count, ...fields } = request;
    const before = await balanceOf(server, owner.sub);
    const answer = await train(owner, { ...fields, image_urls: ownerPictures.slice(0, count) });
    expect([answer.status, answer.body?.detail]).toEqual([400, detail]);
    expect(await balanceOf(server, owner.sub)).toBe(before);
  });

  it('refuses another user picture named without its signature', async () => {
    const theirs = await uploadPictures(other, 1);
    const bare = theirs[0]?.split('?')[0] ?? '';
    const answer = await train(owner, { option: 'FluxProFinetune', name: 'stolen', image_urls: [bare] });
    expect([answer.status, answer.body?.detail]).toEqual([400, 'image_urls is not a file uploaded to Kinora.']);
  });
});

describe('training', () => {
  it('debits 240, lists the model as training, then ready with a preview once the job succeeded', async () => {
    const before = await balanceOf(server, owner.sub);
    const answer = await train(owner, { option: 'FluxFinetune', name: 'My style', trigger_word: 'mystyle', image_urls: ownerPictures.slice(0, 5) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const job = asMedia(answer);
    expect(job).toMatchObject({ kind: 'image', tool: 'finetune', option: 'FluxFinetune', cost: 240 });
    expect(job.args).toMatchObject({ name: 'My style', trigger_word: 'mystyle' });
    expect(await balanceOf(server, owner.sub)).toBe(before - 240);
    const debit = (await ledgerRows(server, owner.sub)).find((row) => row.job_id === job.id);
    expect(debit).toMatchObject({ kind: 'debit', amount: -240 });

    const listed = (await trainedModels(owner)).find((item) => item.media_id === job.id);
    expect(listed).toMatchObject({
      id: job.args.finetune_id,
      name: 'My style',
      option: 'FluxFinetune',
      base_model: 'FluxFinetuned',
      trigger_word: 'mystyle',
      status: 'training',
      preview_url: null,
      image_count: 5,
    });
    const ready = await whenTrained(owner, job.id);
    expect(ready.status).toBe('ready');
    const preview = await fetchFile(ready.preview_url ?? '');
    expect(preview.status).toBe(200);
    expect(preview.bytes.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
    const { rows } = await server.db.query<{ style: Record<string, unknown> | null }>('SELECT style FROM finetunes WHERE id = $1', [ready.id]);
    expect(rows[0]?.style).toBeTruthy();
    // Other users do not see it.
    expect((await trainedModels(other)).map((item) => item.id)).not.toContain(ready.id);
  });

  it('trains Kontext on pairs with a prompt, and a failed training is listed as failed and refunded', async () => {
    const kontext = await train(owner, { option: 'FluxKontextFinetune', name: 'Sepia', prompt: 'turn it sepia', image_urls: ownerPictures.slice(0, 4) });
    expect(kontext.status, JSON.stringify(kontext.body)).toBe(200);
    expect((await whenTrained(owner, asMedia(kontext).id)).status).toBe('ready');

    const before = await balanceOf(server, owner.sub);
    const failing = await train(owner, { option: 'FluxKontextFinetune', name: 'Doomed', prompt: 'this will [fail]', image_urls: ownerPictures.slice(0, 2) });
    expect(failing.status).toBe(200);
    expect(await balanceOf(server, owner.sub)).toBe(before - 240);
    const failed = await whenTrained(owner, asMedia(failing).id);
    expect(failed).toMatchObject({ status: 'failed', preview_url: null });
    expect(await balanceOf(server, owner.sub)).toBe(before);
  });

  it('answers 402 when the credits do not cover 240, creating nothing', async () => {
    const user = await signUpUser(server, 'poor-trainer');
    const pictures = await uploadPictures(user, 1);
    const answer = await train(user, { option: 'FluxProFinetune', name: 'Dear', image_urls: pictures });
    expect([answer.status, answer.body?.detail]).toEqual([402, 'Not enough credits: this costs 240 credits and you have 100.']);
    expect(await trainedModels(user)).toEqual([]);
    const { rows } = await server.db.query('SELECT id FROM media WHERE user_sub = $1 AND tool = $2', [user.sub, 'finetune']);
    expect(rows).toEqual([]);
  });

  it('does not charge the Developer group', async () => {
    const username = `dev${Date.now().toString(36)}`;
    const developer = await server.emulator.createUser({ username, email: `${username}@example.test`, password: 'secret-password-1', groups: ['Developer'] });
    const user = { ...developer, username, email: `${username}@example.test` };
    const pictures = await uploadPictures(user, 1);
    const before = await balanceOf(server, user.sub);
    const answer = await train(user, { option: 'FluxProFinetune', name: 'Free', image_urls: pictures });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(asMedia(answer).cost).toBe(0);
    expect(await balanceOf(server, user.sub)).toBe(before);
  });

  it('runs once per Idempotency-Key: a retry answers the same training job and debits once', async () => {
    const fields = { option: 'FluxProFinetune', name: 'Once', image_urls: ownerPictures.slice(0, 2) };
    const before = await balanceOf(server, owner.sub);
    const first = await train(owner, fields, { 'Idempotency-Key': 'train-once' });
    const again = await train(owner, fields, { 'Idempotency-Key': 'train-once' });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(asMedia(again).id).toBe(asMedia(first).id);
    expect(await balanceOf(server, owner.sub)).toBe(before - 240);
    expect((await trainedModels(owner)).filter((item) => item.name === 'Once')).toHaveLength(1);
  });
});

describe('using a trained model', () => {
  it('makes a text-to-image with the caller ready model and refuses one not ready, of another base model or another user', async () => {
    const trained = asMedia(await train(owner, { option: 'FluxFinetune', name: 'Usable', image_urls: ownerPictures.slice(0, 5) }));
    const finetuneId = String(trained.args.finetune_id);
    // Still training: not usable yet.
    const early = await postForm(server, 'image/text-2-image', { prompt: 'a lighthouse', option: 'FluxFinetuned', finetune_id: finetuneId }, { token: owner.accessToken });
    expect([early.status, early.body?.detail]).toEqual([400, NOT_USABLE]);
    expect((await whenTrained(owner, trained.id)).status).toBe('ready');

    const made = await postForm(server, 'image/text-2-image', { prompt: 'a lighthouse', option: 'FluxFinetuned', finetune_id: finetuneId }, { token: owner.accessToken });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const image = asMedia(made);
    expect(image.args.finetune_id).toBe(finetuneId);
    expect(await pollStatus(server, image.id, hasEnded)).toBe('success_image');

    const theirs = await postForm(server, 'image/text-2-image', { prompt: 'a lighthouse', option: 'FluxFinetuned', finetune_id: finetuneId }, { token: other.accessToken });
    expect([theirs.status, theirs.body?.detail]).toEqual([400, NOT_USABLE]);
    const unknown = await postForm(server, 'image/text-2-image', { prompt: 'x', option: 'FluxFinetuned', finetune_id: 'no-such-model' }, { token: owner.accessToken });
    expect([unknown.status, unknown.body?.detail]).toEqual([400, NOT_USABLE]);
    // A Flux model is not a Kontext model: image-to-image's FluxKontextFinetuned refuses it.
    const kontext = await postForm(
      server,
      'image/image-2-image',
      { prompt: 'x', option: 'FluxKontextFinetuned', finetune_id: finetuneId, image_url: ownerPictures[0] ?? '' },
      { token: owner.accessToken },
    );
    expect([kontext.status, kontext.body?.detail]).toEqual([400, NOT_USABLE]);
  });

  it('keeps the trained model out of the public view of the image', async () => {
    const trained = asMedia(await train(owner, { option: 'FluxProFinetune', name: 'Hidden', image_urls: ownerPictures.slice(0, 1) }));
    await whenTrained(owner, trained.id);
    const made = asMedia(
      await postForm(server, 'image/text-2-image', { prompt: 'a bay', option: 'FluxFinetuned', finetune_id: String(trained.args.finetune_id) }, { token: owner.accessToken }),
    );
    await pollStatus(server, made.id, hasEnded);
    await server.db.query("UPDATE media SET visibility = 'public' WHERE id = $1", [made.id]);
    const view = await callApi<{ args: Record<string, unknown> }>(server, `media/${made.id}/view`);
    expect(view.status).toBe(200);
    expect(view.body?.data?.args).not.toHaveProperty('finetune_style');
    expect(view.body?.data?.args).not.toHaveProperty('finetune_id');
  });
});
