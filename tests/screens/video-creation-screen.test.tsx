import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { MOTION_MODELS } from '@/config/motion-models';
import { PARALLAX_OPTION, VIDEO_CREATION_TOOLS, videoJobCost, type VideoCreationType } from '@/config/video-creation';
import { parsePosePreset } from '@/lib/pose-preset';
import { API, fakeApi } from '../msw/handlers';
import { addMedia, fakeMedia } from '../msw/media';
import { server } from '../msw/server';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { PAGE_LOAD, pngFile, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

const user = userEvent.setup();

setUpJobTests();

const isCreationType = (value: unknown): value is VideoCreationType =>
  typeof value === 'string' && Object.hasOwn(VIDEO_CREATION_TOOLS, value);

/**
 * `POST media` with a pose_preset (issue 5 contract §1): a video creation job charged
 * videoJobCost, then run by the shared fake job store (tests/msw/media.ts) like any other job.
 */
const videoJobHandler = http.post(`${API}/media`, async ({ request }) => {
  fakeMedia.calls.push('POST media');
  if (!request.headers.get('Authorization')) return HttpResponse.json({ detail: 'Not signed in' }, { status: 401 });
  const form = await request.formData();
  const fields: Record<string, string | string[]> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key).map(String);
    fields[key] = key === 'image_urls' ? values : (values[0] ?? '');
  }
  const key = request.headers.get('Idempotency-Key');
  fakeMedia.submissions.push({ endpoint: 'media', fields, idempotencyKey: key });
  const type = fields.creation_type;
  const presets = parsePosePreset(fields.pose_preset);
  if (!isCreationType(type) || presets.length === 0) return HttpResponse.json({ detail: 'Not a video job' }, { status: 400 });
  const model = MOTION_MODELS.find((candidate) => candidate.value === fields.option);
  if (type !== 'parallax-motion' && !model) return HttpResponse.json({ detail: 'Unknown model' }, { status: 400 });
  const cost = videoJobCost(type, model, presets.map((preset) => preset.quantity));
  if (cost > fakeApi.credits) return HttpResponse.json({ detail: 'Not enough credits' }, { status: 402 });
  fakeApi.credits -= cost;
  const media = addMedia({
    kind: 'video',
    tool: VIDEO_CREATION_TOOLS[type],
    option: String(fields.option),
    cost,
    args: { ...fields, pose_preset: presets },
    image_urls: Array.isArray(fields.image_urls) ? fields.image_urls : [],
  });
  return HttpResponse.json({ data: media });
});

beforeEach(() => {
  server.use(videoJobHandler);
});

const results = () => screen.getByRole('region', { name: 'Results' });
const generate = () => screen.getByRole('button', { name: 'Generate' });
const balance = () => within(screen.getByRole('banner')).getByLabelText('Credit balance');
const fileInput = (label: RegExp) => screen.getByLabelText(label, { selector: 'input[type="file"]' });
const queryFileInput = (label: RegExp) => screen.queryByLabelText(label, { selector: 'input[type="file"]' });
const videoSubmissions = () => fakeMedia.submissions.filter((submission) => submission.endpoint === 'media');
const lastFields = () => videoSubmissions().at(-1)?.fields ?? {};
/** The URLs the fake API gave the uploads of a kind, in upload order. */
const uploadedUrls = (tool = 'upload-image'): (string | null)[] =>
  [...fakeMedia.media.values()].filter((media) => media.tool === tool).map((media) => media.items[0]?.url ?? null);

async function upload(label: RegExp, file: File, shownAs: string) {
  await user.upload(fileInput(label), file);
  // A picture shows as its thumbnail, a video as a player, each named after the field and the file.
  if (file.type.startsWith('image/')) await screen.findByRole('img', { name: shownAs });
  else await screen.findByLabelText(shownAs, { selector: 'video' });
}

async function choose(combobox: string, option: string | RegExp) {
  await user.click(screen.getByRole('combobox', { name: combobox }));
  await user.click(await screen.findByRole('option', { name: option }));
}

async function openSignedIn(path: string) {
  await signedInAs(alice);
  renderApp(path);
  await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
}

// Each test uploads several files and waits for a job to run through the shared job store: more
// than the default 5 s on a busy machine.
describe('the video creation pages', { timeout: 60_000 }, () => {
  it('parallax: two camera paths make one preset each and cost "2 videos × 20 credits = 40 credits"', async () => {
    await openSignedIn('/ai-video/parallax-motion');
    expect(screen.getByRole('heading', { level: 1, name: 'Parallax Motion' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Help: Parallax Motion' })).toBeInTheDocument();
    expect(screen.getByText('Each selected camera path makes one video.')).toBeInTheDocument();
    // SPEC §9 labels, the first path ticked to start with.
    const paths = within(screen.getByRole('group', { name: /Camera paths/ }));
    expect(paths.getAllByRole('checkbox').map((box) => box.getAttribute('value'))).toHaveLength(9);
    expect(paths.getByRole('checkbox', { name: 'Horizontal' })).toBeChecked();
    expect(screen.getByText('1 video × 20 credits = 20 credits')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Motion model' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Prompt' })).not.toBeInTheDocument();

    await user.click(paths.getByRole('checkbox', { name: 'Circular' }));
    expect(screen.getByText('2 videos × 20 credits = 40 credits')).toBeInTheDocument();
    await upload(/^Picture/, pngFile('lake.png'), 'Picture: lake.png');
    await user.click(generate());

    await waitFor(() => expect(videoSubmissions()).toHaveLength(1));
    const fields = lastFields();
    expect(fields).toMatchObject({ creation_type: 'parallax-motion', option: PARALLAX_OPTION, image_urls: uploadedUrls() });
    expect(JSON.parse(String(fields.pose_preset))).toEqual([
      { motion_type: 'Parallax', prompt: '', quantity: 1, motion_amount: 5, motion_length: 5, loop: 1, model: 'Parallax', camera_path: 'HorizontalArc' },
      { motion_type: 'Parallax', prompt: '', quantity: 1, motion_amount: 5, motion_length: 5, loop: 1, model: 'Parallax', camera_path: 'Circular' },
    ]);
    expect(videoSubmissions()[0]?.idempotencyKey).toEqual(expect.any(String));
    await waitFor(() => expect(balance()).toHaveTextContent('60 credits'));
    expect(await screen.findByText('Parallax Motion finished', undefined, PAGE_LOAD)).toBeInTheDocument();
    // The finished job is listed under the form, as a video.
    const [result] = await within(results()).findAllByRole('article', undefined, PAGE_LOAD);
    await waitFor(() => expect(result?.querySelector('video')).not.toBeNull());
  });

  it('parallax: refuses to send without a camera path', async () => {
    await openSignedIn('/ai-video/parallax-motion');
    await user.click(screen.getByRole('checkbox', { name: 'Horizontal' }));
    await upload(/^Picture/, pngFile('lake.png'), 'Picture: lake.png');
    await user.click(generate());
    expect(await screen.findByText('Choose at least one camera path.')).toBeInTheDocument();
    expect(videoSubmissions()).toEqual([]);
  });

  it('asks a signed-out visitor to sign in before generating', async () => {
    renderApp('/ai-video/ai-motion');
    expect(await screen.findByRole('heading', { level: 1, name: 'AI Motion' }, PAGE_LOAD)).toBeInTheDocument();
    expect(generate()).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Sign in to generate' })).toHaveAttribute('href', '/authentication');
  });

  it('disables Generate with the reason when the credits do not cover the model', async () => {
    fakeApi.credits = 30;
    await signedInAs({ username: 'bob@example.com', groups: ['Creators'], attributes: { preferred_username: 'bob' } });
    renderApp('/ai-video/ai-motion');
    await waitFor(() => expect(balance()).toHaveTextContent('30 credits'), PAGE_LOAD);
    expect(generate()).toBeDisabled();
    expect(screen.getByText('Not enough credits: this costs 40 credits and you have 30.')).toBeInTheDocument();
    await choose('Motion model', 'Pico Motion · 20 credits');
    expect(generate()).toBeEnabled();
    expect(screen.getByText('1 video × 20 credits = 20 credits')).toBeInTheDocument();
  });

  it('AI Motion: the end frame only in transition mode, where only end-frame models are offered', async () => {
    await openSignedIn('/ai-video/ai-motion');
    expect(screen.getByRole('button', { name: 'Help: AI Motion' })).toBeInTheDocument();
    expect(fileInput(/^First frame/)).toBeInTheDocument();
    expect(queryFileInput(/^End frame/)).toBeNull();
    await user.click(screen.getByRole('combobox', { name: 'Motion model' }));
    expect(await screen.findByRole('option', { name: 'Kling 2 · 160 credits' })).toBeInTheDocument();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('radio', { name: 'Transition to an end frame' }));
    expect(fileInput(/^End frame/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Help: Transition to End Frame' })).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Motion model' }));
    const offered = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(offered).toEqual([
      'Auto · 40 credits',
      'Auto T3 · 80 credits',
      'Kling AI · 40 credits',
      'Luma AI · 40 credits',
      'Runway ML · 40 credits',
      'Pico Motion · 20 credits',
    ]);
    await user.click(screen.getByRole('option', { name: 'Kling AI · 40 credits' }));
    // Kling AI has no motion amount (SPEC §9); Auto has.
    expect(screen.queryByRole('slider', { name: 'Motion amount' })).not.toBeInTheDocument();

    await user.click(generate());
    expect(await screen.findByText('Add the end frame')).toBeInTheDocument();
    expect(videoSubmissions()).toEqual([]);
    await upload(/^First frame/, pngFile('a.png'), 'First frame: a.png');
    await upload(/^End frame/, pngFile('b.png'), 'End frame: b.png');
    await user.click(generate());
    await waitFor(() => expect(videoSubmissions()).toHaveLength(1));
    expect(lastFields()).toMatchObject({ motion_mode: 'transition', option: 'KlingAI', image_urls: uploadedUrls() });
    expect(uploadedUrls()).toHaveLength(2);
  });

  it('AI Motion: the camera motion’s prompt is appended, previewed and sent', async () => {
    await openSignedIn('/ai-video/ai-motion');
    expect(screen.getByRole('slider', { name: 'Motion amount' })).toBeInTheDocument();
    expect(screen.getByRole('slider', { name: 'Strength' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'waves on a beach');
    await choose('Camera motion', 'Pan right');
    expect(screen.getByText('Prompt sent: waves on a beach. Camera pan right')).toBeInTheDocument();
    await upload(/^First frame/, pngFile('beach.png'), 'First frame: beach.png');
    await user.click(generate());

    await waitFor(() => expect(videoSubmissions()).toHaveLength(1));
    const fields = lastFields();
    expect(fields).toMatchObject({ creation_type: 'ai-motion', motion_mode: 'image', option: 'Auto', prompt_strength: '50' });
    expect(JSON.parse(String(fields.pose_preset))).toMatchObject({
      motion_type: 'PanRight',
      prompt: 'waves on a beach. Camera pan right',
      model: 'Auto',
      quantity: 1,
    });
    await waitFor(() => expect(balance()).toHaveTextContent('60 credits'));
  });

  it('AI Motion from text: needs a prompt, sends no pictures, and the aspect ratio', async () => {
    await openSignedIn('/ai-video/ai-motion');
    await user.click(screen.getByRole('radio', { name: 'From a text description' }));
    expect(queryFileInput(/^First frame/)).toBeNull();
    expect(screen.queryByRole('slider', { name: 'Strength' })).not.toBeInTheDocument();
    await user.click(generate());
    expect(await screen.findByText('Enter a prompt')).toBeInTheDocument();
    expect(videoSubmissions()).toEqual([]);

    await user.type(screen.getByRole('textbox', { name: /^Prompt/ }), 'a city at night');
    await choose('Aspect ratio', '9:16');
    await user.click(generate());
    await waitFor(() => expect(videoSubmissions()).toHaveLength(1));
    const fields = lastFields();
    expect(fields).toMatchObject({ motion_mode: 'text', aspect_ratio: '9:16' });
    expect(fields.image_urls).toBeUndefined();
    expect(fields.prompt_strength).toBeUndefined();
    expect(JSON.parse(String(fields.pose_preset)).prompt).toBe('a city at night');
  });

  it('AI Motion composer: adds pictures up to six and sends them in order', async () => {
    await openSignedIn('/ai-video/ai-motion');
    await user.click(screen.getByRole('radio', { name: 'Video composer' }));
    expect(screen.getByRole('button', { name: 'Help: Video Composer' })).toBeInTheDocument();
    for (let added = 0; added < 4; added += 1) await user.click(screen.getByRole('button', { name: 'Add a picture' }));
    expect(screen.queryByRole('button', { name: 'Add a picture' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove Picture 6' }));
    await user.click(screen.getByRole('button', { name: 'Remove Picture 5' }));
    await user.click(screen.getByRole('button', { name: 'Remove Picture 4' }));
    for (const [index, name] of ['one.png', 'two.png', 'three.png'].entries()) {
      await upload(new RegExp(`^Picture ${index + 1}`), pngFile(name), `Picture ${index + 1}: ${name}`);
    }
    await user.click(generate());
    await waitFor(() => expect(videoSubmissions()).toHaveLength(1));
    expect(lastFields()).toMatchObject({ motion_mode: 'composer', image_urls: uploadedUrls() });
    expect(uploadedUrls()).toHaveLength(3);
  });

  it('Try On Video: no prompt, the person and the clothes, its own model', async () => {
    await openSignedIn('/ai-video/try-on');
    expect(screen.getByRole('button', { name: 'Help: Try On' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /Prompt/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Camera motion' })).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Motion model' })).toHaveValue('Try On Video · 40 credits');
    await upload(/^Person picture/, pngFile('me.png'), 'Person picture: me.png');
    await upload(/^Clothes picture/, pngFile('shirt.png'), 'Clothes picture: shirt.png');
    await user.click(generate());
    await waitFor(() => expect(videoSubmissions()).toHaveLength(1));
    const fields = lastFields();
    expect(fields).toMatchObject({ creation_type: 'try-on', option: 'TryOnVideo', image_urls: uploadedUrls() });
    expect(JSON.parse(String(fields.pose_preset))).toMatchObject({ prompt: '', model: 'TryOnVideo' });
    expect(await screen.findByText('Try On Video finished', undefined, PAGE_LOAD)).toBeInTheDocument();
  });

  it('Character Animate: the character picture and the driving video', async () => {
    await openSignedIn('/ai-video/character-animate');
    expect(screen.getByRole('button', { name: 'Help: Character Animate' })).toBeInTheDocument();
    await upload(/^Character picture/, pngFile('hero.png'), 'Character picture: hero.png');
    await user.click(generate());
    expect(await screen.findByText('Add the driving video')).toBeInTheDocument();
    await upload(/^Driving video/, new File([new Uint8Array([0, 0, 0, 24])], 'dance.mp4', { type: 'video/mp4' }), 'Driving video: dance.mp4');
    await user.click(generate());
    await waitFor(() => expect(videoSubmissions()).toHaveLength(1));
    expect(lastFields()).toMatchObject({
      creation_type: 'character-animate',
      image_urls: uploadedUrls(),
      video_url: uploadedUrls('upload-video')[0],
    });
  });

  it('Extend Video: loads the source video and sends it with the frame selection', async () => {
    const source = 'http://localhost/api/files/clip-video.mp4?expires=4102444800&signature=ab';
    addMedia({
      id: 'clip',
      kind: 'video',
      tool: 'ai-motion',
      status: 'success',
      progress: 100,
      items: [
        { type: 'video', status: 'success', url: 'http://localhost/api/files/other.mp4', thumbnail_url: null, file_id: 'other' },
        { type: 'video', status: 'success', url: source, thumbnail_url: null, file_id: 'clip-video' },
      ],
    });
    await openSignedIn('/ai-video/ai-motion?extend=clip&item=1');
    expect(screen.getByRole('heading', { level: 1, name: 'Extend Video' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Help: Extend Video' })).toBeInTheDocument();
    const video = await screen.findByLabelText(/^Video to extend/, { selector: 'video' });
    expect(video).toHaveAttribute('src', source);
    expect(fakeMedia.calls).toContain('GET media/clip');
    expect(screen.queryByRole('radio', { name: 'From a text description' })).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Last frame' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'First frame' }));
    await user.click(generate());

    await waitFor(() => expect(videoSubmissions()).toHaveLength(1));
    const fields = lastFields();
    expect(fields).toMatchObject({ creation_type: 'extend-video', video_url: source, frame_selection: 'First', option: 'Auto' });
    expect(fields.image_urls).toBeUndefined();
    // The job is an Extend Video job, listed under this page's results.
    expect([...fakeMedia.media.values()].filter((media) => media.tool === 'extend-video')).toHaveLength(1);
    expect(await within(results()).findByRole('article', undefined, PAGE_LOAD)).toBeInTheDocument();
  });

  it('Extend Video: says when the video cannot be loaded, and sends nothing', async () => {
    await openSignedIn('/ai-video/ai-motion?extend=gone');
    expect(await screen.findByText('The video could not be loaded: Media not found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    await user.click(generate());
    expect(await screen.findByText('Load the video to extend first.')).toBeInTheDocument();
    expect(videoSubmissions()).toEqual([]);
  });
});
