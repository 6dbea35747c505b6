import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../msw/handlers';
import { fakeMedia } from '../../msw/media';
import { server } from '../../msw/server';
import { addStory, fakeStory, madeParts, resetFakeStory, storyHandlers } from '../../msw/story';
import { renderApp, screen, userEvent, waitFor, within } from '../../test-utils';
import { PAGE_LOAD, setUpJobTests } from '../generation-helpers';
import { alice, signedInAs } from '../session-helpers';

const user = userEvent.setup();
/** In a paying group: SPEC §6 compares the cost with the balance (a person in no group is never refused). */
const carol = { username: 'carol@example.com', groups: ['Creators'], attributes: { preferred_username: 'carol' } };

setUpJobTests();

beforeEach(() => {
  resetFakeStory();
  server.use(...storyHandlers());
});
afterEach(() => resetFakeStory());

const SLOW = { timeout: 10_000 } as const;
const requestsTo = (call: string) => fakeStory.requests.filter((request) => request.call === call);
const scene = (number: number) => screen.getByRole('region', { name: `Scene ${number}` });
const step = (name: RegExp) => within(screen.getByRole('navigation', { name: 'Story steps' })).getByRole('button', { name });

describe('the AI Story page', () => {
  it('asks a signed-out visitor to sign in, with the help of topic 28', async () => {
    renderApp('/ai-production/ai-story');
    expect(await screen.findByRole('heading', { level: 1, name: 'AI Story' }, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to write a story' })).toHaveAttribute('href', '/authentication');
    expect(screen.getByRole('button', { name: 'Help: AI Story' })).toBeInTheDocument();
  });

  it('writes a storyboard from an idea, then opens the story at its own address', async () => {
    await signedInAs(alice);
    const { router } = renderApp('/ai-production/ai-story');
    const form = await screen.findByRole('form', { name: /Idea/ }, PAGE_LOAD);
    expect(screen.getByText('No stories yet. Write your first idea above.')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Help: Idea for Story' })).toBeInTheDocument();

    await user.click(within(form).getByRole('button', { name: 'Write storyboard' }));
    expect(await within(form).findByText('Write at least 10 characters.')).toBeInTheDocument();
    expect(requestsTo('POST story')).toEqual([]);

    const idea = within(form).getByRole('textbox', { name: /Your idea/ });
    await user.type(idea, 'Mara keeps the lighthouse. A storm comes. She lights the lamp.');
    expect(within(form).getByText('62 / 2000 characters')).toBeInTheDocument();
    await user.click(within(form).getByRole('combobox', { name: 'Film length' }));
    await user.click(await screen.findByRole('option', { name: '15 seconds' }));
    await user.click(within(form).getByRole('button', { name: 'Write storyboard' }));

    expect(await screen.findByRole('region', { name: 'Scene 3' }, SLOW)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/ai-production/ai-story/story-1'));
    expect(requestsTo('POST story')[0]?.fields).toMatchObject({
      idea: ['Mara keeps the lighthouse. A storm comes. She lights the lamp.'],
      duration: ['15'],
      aspect_ratio: ['16:9'],
      style: ['cinematic'],
    });
    expect(within(scene(1)).getByRole('textbox', { name: 'What happens' })).toHaveValue('Mara keeps the lighthouse.');
    expect(step(/Storyboard/)).toHaveAttribute('aria-current', 'step');
  }, 30_000);
});

describe('a story', () => {
  it('says when a story does not exist', async () => {
    await signedInAs(alice);
    renderApp('/ai-production/ai-story/nope');
    expect(await screen.findByText('This story does not exist, or it is not yours.', {}, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All stories' })).toHaveAttribute('href', '/ai-production/ai-story');
  });

  it('edits and reorders scenes with the keyboard, saves them, and asks before rewriting from the idea', async () => {
    const story = addStory();
    await signedInAs(alice);
    renderApp(`/ai-production/ai-story/${story.id}`);
    await screen.findByRole('region', { name: 'Scene 1' }, PAGE_LOAD);

    const text = within(scene(2)).getByRole('textbox', { name: 'What happens' });
    await user.clear(text);
    await user.type(text, 'The storm breaks.');
    within(scene(2)).getByRole('button', { name: 'Move scene 2 up' }).focus();
    await user.keyboard('{Enter}');
    expect(within(scene(1)).getByRole('textbox', { name: 'What happens' })).toHaveValue('The storm breaks.');
    expect(within(scene(1)).getByRole('button', { name: 'Move scene 1 up' })).toBeDisabled();
    expect(within(scene(1)).getByRole('button', { name: 'Move scene 1 down' })).toHaveFocus();

    await waitFor(() => expect(requestsTo(`PUT story/${story.id}`).length).toBeGreaterThan(0), SLOW);
    await waitFor(() => expect(screen.getByText('Saved')).toBeInTheDocument(), SLOW);
    const saved = fakeStory.stories.get(story.id)!.storyboard;
    expect(saved.scenes.map((candidate) => candidate.text)).toEqual(['The storm breaks.', 'Mara keeps the lighthouse.', 'She lights the lamp.']);

    await user.click(screen.getByRole('button', { name: 'Rewrite from idea' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rewrite the storyboard from the idea?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep this storyboard' }));
    expect(requestsTo(`PUT story/${story.id}`).some((request) => request.json?.rewrite === true)).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Rewrite from idea' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Rewrite' }));
    await waitFor(() => expect(within(scene(1)).getByRole('textbox', { name: 'What happens' })).toHaveValue('Mara keeps the lighthouse.'), SLOW);
    expect(requestsTo(`PUT story/${story.id}`).some((request) => request.json?.rewrite === true)).toBe(true);
  }, 30_000);

  it('shows the cost of the element pictures, makes them, and shows each with its state', async () => {
    const story = addStory({ step: 'elements' });
    await signedInAs(carol);
    renderApp(`/ai-production/ai-story/${story.id}`);
    const mara = await screen.findByRole('region', { name: 'Mara' }, PAGE_LOAD);
    // Never made: the badge and the card's button agree.
    expect(within(mara).getByText('Not made yet')).toBeInTheDocument();
    expect(within(mara).queryByText('Missing')).not.toBeInTheDocument();
    expect(within(mara).getByRole('button', { name: 'Make the picture of Mara' })).toHaveTextContent(/^Make$/);
    expect(within(mara).queryByRole('button', { name: /Regenerate/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a character' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a place' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add an object' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('story-elements-cost')).toHaveTextContent('2 pictures × 4 credits = 8 credits · you have 100'));
    expect(step(/Scenes/)).toHaveAttribute('aria-disabled', 'true');

    await user.click(screen.getByRole('button', { name: 'Make pictures' }));
    await waitFor(() => expect(requestsTo(`POST story/${story.id}/elements`)).toHaveLength(1));
    expect(requestsTo(`POST story/${story.id}/elements`)[0]!.idempotencyKey).toEqual(expect.any(String));
    // While it is made: its progress, and Cancel for the step's running jobs.
    expect(await within(mara).findByRole('progressbar', { name: 'Picture of Mara progress' })).toBeInTheDocument();
    expect(within(mara).getByText('Making…')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    // Beside Cancel, what is true now: the pictures are being made, not made.
    expect(screen.getByText('2 pictures are being made.')).toBeInTheDocument();
    expect(screen.queryByText('Every picture is made and up to date.')).not.toBeInTheDocument();
    const picture = await within(mara).findByRole('img', { name: 'Picture of Mara' }, SLOW);
    expect(picture.getAttribute('src')).toContain('-thumbnail.jpg');
    await waitFor(() => expect(within(mara).getByText('Ready')).toBeInTheDocument(), SLOW);
    await waitFor(() => expect(step(/Scenes/)).not.toHaveAttribute('aria-disabled'), SLOW);
    await waitFor(() => expect(screen.getByText('Every picture is made and up to date.')).toBeInTheDocument(), SLOW);
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();

    // A changed description makes the picture stale, shown and kept; only it is made again.
    await user.type(within(mara).getByRole('textbox', { name: 'Description' }), ' with a red coat');
    expect(within(mara).getByText('Stale')).toBeInTheDocument();
    expect(within(mara).getByText('Changed since this picture was made')).toBeInTheDocument();
    expect(screen.getByTestId('story-elements-cost')).toHaveTextContent('1 picture × 4 credits = 4 credits');
    await user.click(within(mara).getByRole('button', { name: 'Regenerate the picture of Mara' }));
    await waitFor(() => expect(requestsTo(`POST story/${story.id}/elements`)).toHaveLength(2));
    expect(requestsTo(`POST story/${story.id}/elements`)[1]!.fields.ids).toEqual(['el-1']);
  }, 30_000);

  it('makes the scene pictures, marks the one whose scene changed as stale, and makes only that one again', async () => {
    const story = addStory({ step: 'scenes' });
    madeParts(story, 'elements');
    await signedInAs(carol);
    renderApp(`/ai-production/ai-story/${story.id}`);
    await screen.findByRole('heading', { level: 2, name: 'Scenes' }, PAGE_LOAD);
    await waitFor(() => expect(screen.getByTestId('story-scenes-cost')).toHaveTextContent('3 scene pictures × 4 credits = 12 credits'));
    await user.click(screen.getByRole('button', { name: 'Make scene pictures' }));
    for (const number of [1, 2, 3]) {
      expect(await within(scene(number)).findByRole('img', { name: `Picture of scene ${number}` }, SLOW)).toBeInTheDocument();
    }
    await waitFor(() => expect(within(scene(3)).getByText('Ready')).toBeInTheDocument(), SLOW);

    await user.click(step(/Storyboard/));
    const text = await within(scene(2)).findByRole('textbox', { name: 'What happens' });
    await user.type(text, ' Waves crash.');
    await user.click(step(/Scenes/));
    await screen.findByRole('heading', { level: 2, name: 'Scenes' });
    expect(within(scene(2)).getByText('Stale')).toBeInTheDocument();
    expect(within(scene(2)).getByText('Changed since this picture was made')).toBeInTheDocument();
    expect(within(scene(1)).getByText('Ready')).toBeInTheDocument();
    expect(screen.getByTestId('story-scenes-cost')).toHaveTextContent('1 scene picture × 4 credits = 4 credits');
    await user.click(within(scene(2)).getByRole('button', { name: 'Regenerate the picture of scene 2' }));
    await waitFor(() => expect(requestsTo(`POST story/${story.id}/scenes`)).toHaveLength(2));
    expect(requestsTo(`POST story/${story.id}/scenes`)[1]!.fields.ids).toEqual(['scene-2']);
  }, 30_000);

  it('keeps the earlier take of a scene picture made again: Undo returns to it, the takes are picked by keyboard; the card shows its elements', async () => {
    const story = addStory({ step: 'scenes' });
    madeParts(story, 'scenes');
    await signedInAs(carol);
    renderApp(`/ai-production/ai-story/${story.id}`);
    await screen.findByRole('heading', { level: 2, name: 'Scenes' }, PAGE_LOAD);
    // The scene is drawn with its elements' pictures, shown on its card.
    const elements = within(scene(1)).getByRole('list', { name: 'Elements of scene 1' });
    expect(await within(elements).findByRole('img', { name: 'Mara' }, SLOW)).toBeInTheDocument();
    // Made once: no takes, no Undo.
    expect(within(scene(2)).queryByRole('group', { name: /Takes of/ })).not.toBeInTheDocument();
    const first = within(scene(2)).getByRole('img', { name: 'Picture of scene 2' }).getAttribute('src');

    await user.click(within(scene(2)).getByRole('button', { name: 'Regenerate the picture of scene 2' }));
    const takes = await within(scene(2)).findByRole('group', { name: 'Takes of the picture of scene 2' }, SLOW);
    await waitFor(() => expect(within(scene(2)).getByText('Ready')).toBeInTheDocument(), SLOW);
    expect(within(takes).getByRole('button', { name: 'Take 2 of the picture of scene 2 (in use)' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(scene(2)).getByRole('img', { name: 'Picture of scene 2' }).getAttribute('src')).not.toBe(first);

    // Undo: back to the first take, the second one kept.
    await user.click(within(scene(2)).getByRole('button', { name: 'Undo: back to take 1 of the picture of scene 2' }));
    await waitFor(() => expect(within(takes).getByRole('button', { name: 'Take 1 of the picture of scene 2 (in use)' })).toHaveAttribute('aria-pressed', 'true'));
    // The keyboard's place moves to the take brought back (Undo is gone).
    await waitFor(() => expect(within(takes).getByRole('button', { name: 'Take 1 of the picture of scene 2 (in use)' })).toHaveFocus());
    expect(within(scene(2)).getByRole('img', { name: 'Picture of scene 2' }).getAttribute('src')).toBe(first);
    expect(within(scene(2)).queryByRole('button', { name: /^Undo/ })).not.toBeInTheDocument();
    const undo = requestsTo(`POST story/${story.id}/scenes/scene-2/undo`);
    expect(undo).toHaveLength(1);
    expect(undo[0]!.json).toMatchObject({ storyboard: expect.objectContaining({ scenes: expect.any(Array) }) });

    // The second take again, from the keyboard.
    const second = within(takes).getByRole('button', { name: 'Take 2 of the picture of scene 2' });
    second.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(takes).getByRole('button', { name: 'Take 2 of the picture of scene 2 (in use)' })).toBeInTheDocument());
    expect(requestsTo(`POST story/${story.id}/scenes/scene-2/takes/${story.storyboard.scenes[1]?.image?.media_id ?? ''}/select`)).toHaveLength(1);
  }, 30_000);

  it('makes the videos and the narration on the scriptboard, then joins them into a film to play and download', async () => {
    // Each job ends at its first poll: this test makes three kinds of parts in turn.
    fakeMedia.pollsToFinish = 1;
    const story = addStory({ step: 'scriptboard' });
    madeParts(story, 'scenes');
    await signedInAs(carol);
    renderApp(`/ai-production/ai-story/${story.id}`);
    const timeline = await screen.findByRole('list', { name: 'Timeline' }, PAGE_LOAD);
    expect(within(timeline).getAllByRole('listitem')).toHaveLength(3);
    await waitFor(() => expect(screen.getByTestId('story-videos-cost')).toHaveTextContent('3 videos × 20 credits = 60 credits'));
    expect(screen.getByRole('button', { name: 'Make the film' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Make videos' }));
    await waitFor(() => expect(timeline.querySelectorAll('video')).toHaveLength(3), SLOW);
    const clip = within(timeline).getByRole('listitem', { name: 'Scene 1 · 5 s' });
    expect(within(clip).getByLabelText('Video of scene 1')).toHaveAttribute('controls');

    expect(screen.getByTestId('story-sound-cost')).toHaveTextContent('1 sound × 8 credits = 8 credits');
    await user.click(screen.getByRole('button', { name: 'Make sound' }));
    expect(await screen.findByLabelText('The film’s sound', { selector: 'audio' }, SLOW)).toBeInTheDocument();

    await waitFor(() => expect(screen.getByRole('button', { name: 'Make the film' })).toBeEnabled(), SLOW);
    await user.click(screen.getByRole('button', { name: 'Make the film' }));
    await waitFor(() => expect(requestsTo(`POST story/${story.id}/concat`)).toHaveLength(1));
    expect(requestsTo(`POST story/${story.id}/concat`)[0]!.fields.concat_video_urls).toHaveLength(3);
    const download = await screen.findByRole('link', { name: 'Download MP4' }, SLOW);
    const film = screen.getByLabelText('The film', { selector: 'video' });
    expect(film).toHaveAttribute('controls');
    expect(film).toHaveAttribute('src', download.getAttribute('href'));
    expect(film.getAttribute('poster')).toContain('-thumbnail.jpg');
    expect(await screen.findByText('Your film is ready', {}, SLOW)).toBeInTheDocument();
  }, 30_000);

  it('keeps "Make pictures" disabled with the reason when the balance is short', async () => {
    fakeApi.credits = 3;
    const story = addStory({ step: 'elements' });
    await signedInAs(carol);
    renderApp(`/ai-production/ai-story/${story.id}`);
    await waitFor(
      () => expect(screen.getByText('Not enough credits: this step costs 8 credits and you have 3.')).toBeInTheDocument(),
      PAGE_LOAD,
    );
    expect(screen.getByRole('button', { name: 'Make pictures' })).toBeDisabled();
    expect(requestsTo(`POST story/${story.id}/elements`)).toEqual([]);
  });

  it('quotes the whole film, holds it in one click, pays the step from the hold, and releases the rest', async () => {
    fakeApi.credits = 200;
    const story = addStory({ step: 'elements' });
    await signedInAs(carol);
    renderApp(`/ai-production/ai-story/${story.id}`);
    const quote = await screen.findByTestId('story-quote', {}, PAGE_LOAD);
    await waitFor(() => expect(quote).toHaveTextContent(/^2 element pictures 8 · 3 scene pictures 12 · 3 videos \d+ · sound \d+ = \d+ credits \(joining is free\)$/));
    const total = Number(/= (\d+) credits/.exec(quote.textContent ?? '')?.[1]);
    expect(screen.getByText(/Holding sets the whole price aside now/)).toBeInTheDocument();
    expect(requestsTo(`POST story/${story.id}/hold`)).toEqual([]);

    await user.click(screen.getByRole('button', { name: `Hold ${total} credits and start` }));
    expect(await screen.findByTestId('story-hold')).toHaveTextContent(`${total} credits held for this film (0 spent from the hold so far).`);
    expect(requestsTo(`POST story/${story.id}/hold`)[0]!.idempotencyKey).toEqual(expect.any(String));
    expect(fakeApi.credits).toBe(200 - total);
    // The step is paid from the hold, and says so.
    await waitFor(() => expect(screen.getByTestId('story-elements-cost')).toHaveTextContent(`2 pictures × 4 credits = 8 credits · from the hold (${total} left)`));
    expect(screen.queryByRole('button', { name: /^Hold / })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Make pictures' }));
    await waitFor(() => expect(screen.getByTestId('story-hold')).toHaveTextContent(`${total - 8} credits held for this film (8 spent from the hold so far).`), SLOW);
    expect(fakeApi.credits).toBe(200 - total);

    await user.click(screen.getByRole('button', { name: 'Release' }));
    expect(await screen.findByText('The hold was released: its credits are back in your balance.')).toBeInTheDocument();
    expect(screen.queryByTestId('story-hold')).not.toBeInTheDocument();
    expect(fakeApi.credits).toBe(200 - 8);
    expect(requestsTo(`DELETE story/${story.id}/hold`)).toHaveLength(1);
  }, 30_000);

  it('lists the person’s stories to reopen, and asks before deleting one', async () => {
    addStory({ idea: 'An old clock stops. The town waits.' });
    addStory();
    await signedInAs(alice);
    renderApp('/ai-production/ai-story');
    const list = await screen.findByRole('region', { name: 'Your stories' }, PAGE_LOAD);
    const cards = await within(list).findAllByRole('article');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByRole('link', { name: 'Open Mara keeps the lighthouse.' })).toHaveAttribute('href', '/ai-production/ai-story/story-2');
    expect(within(cards[0]!).getByText('At: Storyboard')).toBeInTheDocument();

    await user.click(within(cards[1]!).getByRole('button', { name: 'Delete An old clock stops.' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this story?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(list).getAllByRole('article')).toHaveLength(1));
    expect(fakeStory.stories.has('story-1')).toBe(false);
  });
});
