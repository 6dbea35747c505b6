import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, fakeApi } from '../msw/handlers';
import { addMedia, fakeMedia } from '../msw/media';
import { server } from '../msw/server';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { PAGE_LOAD, pngFile, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

const user = userEvent.setup();

/** Each test uploads several files and runs a job: seconds on a busy machine. */
const SLOW_TEST = 60_000;

setUpJobTests();

const results = () => screen.getByRole('region', { name: 'Results' });
const generate = () => screen.getByRole('button', { name: 'Generate' });
const fileInput = (label: RegExp) => screen.getByLabelText(label, { selector: 'input[type="file"]' });
const mp4File = (name = 'clip.mp4'): File => new File([new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70])], name, { type: 'video/mp4' });
const mp3File = (name = 'speech.mp3'): File => new File([new Uint8Array([0x49, 0x44, 0x33])], name, { type: 'audio/mpeg' });

/** The URL the fake API gave the n-th upload (0 = the first; jsdom sends every file as "blob"). */
const uploadedUrl = (position: number): string | null =>
  [...fakeMedia.media.values()].filter((media) => media.tool.startsWith('upload-'))[position]?.items[0]?.url ?? null;

async function pick(combobox: string, option: RegExp | string) {
  await user.click(screen.getByRole('combobox', { name: combobox }));
  await user.click(await screen.findByRole('option', { name: option }));
}

async function openSignedIn(path: string) {
  await signedInAs(alice);
  renderApp(path);
  await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
}

/** Uploads the file and waits for its preview (a picture's image, a video's or audio's player). */
async function upload(label: RegExp, file: File, shown: string) {
  await user.upload(fileInput(label), file);
  if (file.type.startsWith('image/')) expect(await screen.findByRole('img', { name: shown })).toBeInTheDocument();
  else expect(await screen.findByLabelText(shown)).toBeInTheDocument();
}

describe('Video Effects', () => {
  it('asks for an end frame only for the effects that need one, and refuses to send without it', async () => {
    await openSignedIn('/ai-video/video-effects');
    // Pika (the first family): a first frame only, its first effect chosen.
    expect(screen.getByRole('combobox', { name: 'Effect' })).toHaveValue('Cake-ify');
    expect(fileInput(/^First frame/)).toHaveAttribute('accept', expect.stringContaining('.png'));
    expect(screen.queryByLabelText(/^End frame/, { selector: 'input[type="file"]' })).not.toBeInTheDocument();

    await pick('Model', /^Kling Effects · 40 credits$/);
    // Kling's first effect is hug: it needs the second person.
    expect(screen.getByRole('combobox', { name: 'Effect' })).toHaveValue('Hug');
    expect(fileInput(/^End frame/)).toBeRequired();
    expect(screen.getByText('This effect needs an end frame.')).toBeInTheDocument();
    await pick('Effect', 'Squish');
    expect(screen.queryByLabelText(/^End frame/, { selector: 'input[type="file"]' })).not.toBeInTheDocument();
    await pick('Effect', 'Kiss');
    expect(screen.getByText('This effect needs an end frame.')).toBeInTheDocument();

    await upload(/^First frame/, pngFile('left.png'), 'First frame: left.png');
    await user.click(generate());
    expect(await screen.findByText('Add the end frame picture')).toBeInTheDocument();
    expect(fakeMedia.submissions).toEqual([]);

    await upload(/^End frame/, pngFile('right.png'), 'End frame: right.png');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    expect(fakeMedia.submissions[0]).toMatchObject({
      endpoint: 'video/video-effects',
      fields: { option: 'KlingEffects', effect: 'kiss', image_url: uploadedUrl(0), ref_image_url: uploadedUrl(1) },
    });
    expect(fakeMedia.calls).toContain('POST video/video-effects');

    // The result: a player with its poster, the MP4 and GIF links, and where to take it on to.
    const player = await within(results()).findByLabelText('1.1.KlingEffects.kiss', {}, PAGE_LOAD);
    const media = [...fakeMedia.media.values()].find((candidate) => candidate.tool === 'video-effects');
    expect(player.tagName).toBe('VIDEO');
    expect(player).toHaveAttribute('controls');
    expect(player).toHaveAttribute('preload', 'metadata');
    expect(player).toHaveAttribute('src', media?.items[0]?.url);
    expect(player).toHaveAttribute('poster', media?.items[0]?.thumbnail_url);
    expect(within(results()).getByRole('link', { name: 'Download MP4 1.1.KlingEffects.kiss' })).toHaveAttribute('href', media?.items[0]?.url);
    expect(within(results()).getByRole('link', { name: 'GIF 1.1.KlingEffects.kiss' })).toHaveAttribute('href', media?.items[0]?.gif_url);
    expect(within(results()).getByRole('link', { name: 'Extend 1.1.KlingEffects.kiss' })).toHaveAttribute(
      'href',
      `/ai-video/ai-motion?extend=${media?.id}&item=0`,
    );
    expect(within(results()).getByRole('link', { name: 'Edit 1.1.KlingEffects.kiss' })).toHaveAttribute(
      'href',
      `/ai-video/edit-video?video=${media?.id}&item=0`,
    );
  }, SLOW_TEST);
});

describe('Edit Video', () => {
  it('sends each operation to its own call, with the inputs and choices it takes', async () => {
    await openSignedIn('/ai-video/edit-video');
    expect(screen.getByRole('combobox', { name: 'Model' })).toHaveValue('Crop Video · 20 credits');
    const video = fileInput(/^Video/);
    expect(video).toHaveAttribute('accept', expect.stringContaining('.mp4'));
    expect(screen.getAllByRole('link', { name: 'Upload videos page' })[0]).toHaveAttribute('href', '/ai-video/upload-video');
    await user.click(generate());
    expect(await screen.findByText('Add a video')).toBeInTheDocument();
    expect(fakeMedia.submissions).toEqual([]);

    await upload(/^Video/, mp4File('beach.mp4'), 'Video: beach.mp4');
    await pick('Aspect ratio', '9:16');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.calls).toContain('POST video/crop-to-aspect-ratio'));
    expect(fakeMedia.submissions[0]?.fields).toEqual({ option: 'CropToAspectRatio', aspect_ratio: '9:16', video_url: uploadedUrl(0) });

    await pick('Model', /^Enhance · 40 credits$/);
    expect(screen.queryByRole('combobox', { name: 'Aspect ratio' })).not.toBeInTheDocument();
    await pick('Upscale', '2X&DeepClean');
    await waitFor(() => expect(generate()).toBeEnabled(), { timeout: 5000 });
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.calls).toContain('POST video/enhance'));
    expect(fakeMedia.submissions[1]?.fields).toEqual({ option: 'EnhanceVideo', enhance_mode: '2X&DeepClean', video_url: uploadedUrl(0) });
  }, SLOW_TEST);

  it.each([
    ['Sound Effect · 20 credits', 'video/sound-effect', 'waves crashing', { option: 'SoundEffect', prompt: 'waves crashing' }],
    ['Reframe Video · 40 credits', 'video/reframe', 'a wide beach', { option: 'LumaReframeVideo', prompt: 'a wide beach', aspect_ratio: '16:9' }],
  ])('sends %s to %s with its prompt', async (label, endpoint, prompt, fields) => {
    await openSignedIn('/ai-video/edit-video');
    await pick('Model', label);
    await upload(/^Video/, mp4File(), 'Video: clip.mp4');
    await user.click(generate());
    expect(await screen.findByText('Enter a prompt')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), prompt);
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.calls).toContain(`POST ${endpoint}`));
    expect(fakeMedia.submissions[0]?.fields).toEqual({ ...fields, video_url: uploadedUrl(0) });
  }, SLOW_TEST);

  it('opens with a result video from its "Edit" link, until another one is chosen', async () => {
    addMedia({
      id: 'clip',
      kind: 'video',
      tool: 'parallax-motion',
      status: 'success',
      option: 'Parallax',
      items: [
        { type: 'video', status: 'success', url: 'http://localhost/api/files/clip-1.mp4', thumbnail_url: null, file_id: 'c1', label: '1.1.Horizontal' },
        { type: 'video', status: 'success', url: 'http://localhost/api/files/clip-2.mp4', thumbnail_url: null, file_id: 'c2', label: '1.2.Circular' },
      ],
    });
    await openSignedIn('/ai-video/edit-video?video=clip&item=1');
    const player = await screen.findByLabelText('Video: 1.2.Circular');
    expect(player).toHaveAttribute('src', 'http://localhost/api/files/clip-2.mp4');
    await pick('Model', /^Enhance · 40 credits$/);
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.calls).toContain('POST video/enhance'));
    expect(fakeMedia.submissions[0]?.fields).toEqual({
      option: 'EnhanceVideo',
      enhance_mode: 'DeepClean',
      video_url: 'http://localhost/api/files/clip-2.mp4',
    });

    await user.click(screen.getByRole('button', { name: 'Use another video' }));
    expect(screen.queryByLabelText('Video: 1.2.Circular')).not.toBeInTheDocument();
    expect(fileInput(/^Video/)).toBeInTheDocument();
    await waitFor(() => expect(generate()).toBeEnabled(), { timeout: 5000 });
    await user.click(generate());
    expect(await screen.findByText('Add a video')).toBeInTheDocument();
    expect(fakeMedia.submissions).toHaveLength(1);
  }, SLOW_TEST);

  it('attaches audio for free: 0 credits, an audio input and the sync mode', async () => {
    await openSignedIn('/ai-video/edit-video');
    await pick('Model', /^Attach Audio · 0 credits$/);
    expect(screen.getByText('Costs 0 credits · you have 100')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Audio sync' })).toHaveValue('Match Video');
    expect(fileInput(/^Audio/)).toHaveAttribute('accept', expect.stringContaining('.mp3'));
    await upload(/^Video/, mp4File('talk.mp4'), 'Video: talk.mp4');
    await user.click(generate());
    expect(await screen.findByText('Add an audio file')).toBeInTheDocument();
    expect(fakeMedia.submissions).toEqual([]);

    await upload(/^Audio/, mp3File('music.mp3'), 'Audio: music.mp3');
    await pick('Audio sync', 'Pad Audio');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.calls).toContain('POST video/audio'));
    expect(fakeMedia.submissions[0]?.fields).toEqual({
      option: 'AttachAudio',
      mode: 'PadAudio',
      video_url: uploadedUrl(0),
      audio_url: uploadedUrl(1),
    });
    await within(results()).findByLabelText('1.1.AttachAudio', {}, PAGE_LOAD);
    expect(within(screen.getByRole('banner')).getByLabelText('Credit balance')).toHaveTextContent('100 credits');
  }, SLOW_TEST);
});

describe('Lip Sync', () => {
  it('speaks the text in a voice, or the uploaded audio instead', async () => {
    await openSignedIn('/ai-video/lip-sync');
    await user.click(generate());
    expect(await screen.findByText('Enter a prompt')).toBeInTheDocument();
    expect(screen.getByText('Add a face picture or a face video.')).toBeInTheDocument();
    expect(fakeMedia.submissions).toEqual([]);

    await upload(/^Face video/, mp4File('face.mp4'), 'Face video: face.mp4');
    await user.type(screen.getByRole('textbox', { name: 'Text to speak' }), 'Hello there');
    expect(screen.getByRole('combobox', { name: 'Voice' })).toHaveValue('Aria');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    expect(fakeMedia.submissions[0]).toMatchObject({
      endpoint: 'video/lip-sync',
      fields: { option: 'LipSync', prompt: 'Hello there', voice: 'Aria', video_url: uploadedUrl(0) },
    });

    await upload(/^Speech audio/, mp3File('line.mp3'), 'Speech audio (optional): line.mp3');
    expect(screen.queryByRole('textbox', { name: 'Text to speak' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Voice' })).not.toBeInTheDocument();
    await waitFor(() => expect(generate()).toBeEnabled(), { timeout: 5000 });
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(2));
    expect(fakeMedia.submissions[1]?.fields).toEqual({
      option: 'LipSync',
      video_url: uploadedUrl(0),
      audio_url: uploadedUrl(1),
    });
  }, SLOW_TEST);
});

describe('Replace Background (video)', () => {
  async function submitReplacement() {
    await openSignedIn('/ai-video/replace-background-video');
    await upload(/^Video/, mp4File('walk.mp4'), 'Video: walk.mp4');
    await user.click(generate());
    expect(await screen.findByText('Add a background picture or a background video.')).toBeInTheDocument();
    expect(fakeMedia.submissions).toEqual([]);
    await upload(/^Background picture/, pngFile('beach.png'), 'Background picture: beach.png');
    await user.click(generate());
  }

  it('says "Failed to create a new content" / "API Error" when the job fails, and lists no result', async () => {
    fakeMedia.outcome = 'failed';
    await submitReplacement();
    expect(await screen.findByText('Failed to create a new content', {}, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByText('API Error')).toBeInTheDocument();
    expect(screen.queryByText(/^Replace Background failed/)).not.toBeInTheDocument();
    expect(fakeMedia.submissions[0]?.fields).toMatchObject({ video_url: uploadedUrl(0), bg_image_url: uploadedUrl(1) });
    const card = await within(results()).findByRole('article', {}, PAGE_LOAD);
    await waitFor(() => expect(card).toHaveTextContent('Failed: The render engine failed.'));
    expect(results().querySelector('video')).toBeNull();
  }, SLOW_TEST);

  it('says the same when the call itself is refused', async () => {
    server.use(http.post(`${API}/video/replace-background`, () => HttpResponse.json({ detail: 'The matte failed.' }, { status: 400 })));
    await submitReplacement();
    expect(await screen.findByText('Failed to create a new content', {}, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByText('API Error')).toBeInTheDocument();
    expect(results().querySelector('video')).toBeNull();
  }, SLOW_TEST);
});

describe('Restyle Video', () => {
  it('asks for the video and the style, with an optional style picture', async () => {
    fakeApi.credits = 500;
    await openSignedIn('/ai-video/modify-video');
    expect(screen.getByRole('button', { name: 'Choose file: Video (required)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose file: Style reference (optional)' })).toBeInTheDocument();
    await upload(/^Video/, mp4File('city.mp4'), 'Video: city.mp4');
    await user.type(screen.getByRole('textbox', { name: 'Style' }), 'pencil sketch');
    await user.click(generate());
    await waitFor(() => expect(fakeMedia.submissions).toHaveLength(1));
    expect(fakeMedia.submissions[0]).toMatchObject({
      endpoint: 'video/modify',
      fields: { option: 'LumaModify', prompt: 'pencil sketch', video_url: uploadedUrl(0) },
    });
  }, SLOW_TEST);
});
