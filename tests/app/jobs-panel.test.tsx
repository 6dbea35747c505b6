import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@/config/messages';
import { finishedJobText } from '@/app/use-job-toasts';
import { phaseText } from '@/components/jobs/job-view';
import { http } from 'msw';
import { API, fakeApi } from '../msw/handlers';
import { answer, detail } from '../msw/data';
import { server } from '../msw/server';
import { fakeMedia } from '../msw/media';
import { PAGE_LOAD, setUpJobTests } from '../screens/generation-helpers';
import { alice, signedInAs } from '../screens/session-helpers';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';

const user = userEvent.setup();

// Waits of a tenth of the back-off: a running job is polled often, but not in a tight loop.
setUpJobTests(0.05);

// The app's header; the open drawer has a header of its own.
const header = () => screen.getAllByRole('banner')[0] as HTMLElement;
const balance = () => screen.getByRole('status', { name: 'Credit balance' });

async function startTextToImage(prompt: string) {
  await waitFor(() => expect(screen.getByRole('button', { name: 'Generate' })).toBeEnabled(), PAGE_LOAD);
  await user.type(screen.getByRole('textbox', { name: 'Prompt' }), prompt);
  await user.click(screen.getByRole('button', { name: 'Generate' }));
}

// Each test runs a job from submit to end through the real machines and the fake API.
describe('the jobs panel', { timeout: 20_000 }, () => {
  it('is offered to signed-in people only', async () => {
    renderApp('/ai-image/');
    await within(header()).findByRole('link', { name: 'Sign in' });
    expect(within(header()).queryByRole('button', { name: /^Jobs/ })).not.toBeInTheDocument();
  });

  it('opens from the header and says when there are no jobs', async () => {
    await signedInAs(alice);
    renderApp('/ai-image/');
    await user.click(await within(header()).findByRole('button', { name: 'Jobs, 0 running' }));
    const drawer = await screen.findByRole('dialog', { name: 'Jobs' });
    expect(within(drawer).getByText('No jobs yet. Anything you generate shows up here while it runs.')).toBeInTheDocument();
  });

  it('counts a running job in the header and the tab title, and cancels it with a refund', async () => {
    fakeMedia.pollsToFinish = 10_000;
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await startTextToImage('a slow painting of a forest');

    const button = await within(header()).findByRole('button', { name: 'Jobs, 1 running' });
    await waitFor(() => expect(document.title).toBe('(1) Text to Image · Kinora'));
    await waitFor(() => expect(balance()).toHaveTextContent('96 credits'));

    await user.click(button);
    const drawer = await screen.findByRole('dialog', { name: 'Jobs' });
    const job = await within(drawer).findByRole('listitem', { name: /^Text to Image, Processing/ });
    expect(job).toHaveTextContent('Seedream');
    expect(job).toHaveTextContent('4 credits');
    expect(job).toHaveTextContent(/Elapsed \d+:\d\d/);
    expect(within(job).getByRole('progressbar')).toBeInTheDocument();
    // Issue 17: a running job has no result yet, so nothing to view.
    expect(within(job).queryByRole('link', { name: 'View result' })).not.toBeInTheDocument();

    await user.click(within(job).getByRole('button', { name: 'Cancel Text to Image' }));
    const cancelled = await within(drawer).findByRole('listitem', { name: 'Text to Image, Cancelled' });
    expect(cancelled).toHaveTextContent('Refunded 4 credits');
    expect(cancelled).toHaveTextContent(/Took \d+:\d\d/);
    expect(within(cancelled).queryByRole('button', { name: 'Cancel Text to Image' })).not.toBeInTheDocument();
    expect(within(cancelled).queryByRole('link', { name: 'View result' })).not.toBeInTheDocument();
    expect(await screen.findByText('Text to Image cancelled; 4 credits refunded')).toBeInTheDocument();
    await waitFor(() => expect(balance()).toHaveTextContent('100 credits'));
    await waitFor(() => expect(document.title).toBe('Text to Image · Kinora'));
    expect(within(header()).getByRole('button', { name: 'Jobs, 0 running' })).toBeInTheDocument();
    expect(fakeMedia.calls.some((call) => /^PUT media\/m\d+\/cancel$/.test(call))).toBe(true);

    await user.click(within(cancelled).getByRole('button', { name: 'Dismiss Text to Image' }));
    expect(await within(drawer).findByText('No jobs yet. Anything you generate shows up here while it runs.')).toBeInTheDocument();
  });

  it('shows a waiting job’s place; Hold, Resume and Run next go to the server and back, a refusal says why', async () => {
    // The job waits 2nd in the person's queue (the fake server would otherwise start it at the first poll).
    let held = false;
    let position: number | null = 2;
    const calls: string[] = [];
    server.use(
      http.get(`${API}/media/:id/processing-status`, ({ params }) =>
        answer({ id: String(params.id), status: 'queue_source', progress: 0, items: [], updated_at: new Date().toISOString(), held, queue_position: position }),
      ),
      http.post(`${API}/media/:id/:action`, ({ params }) => {
        const record = fakeMedia.media.get(String(params.id));
        if (!record) return detail(404, 'Not found.');
        calls.push(String(params.action));
        if (params.action === 'run-next') return detail(409, 'This job has already started: only a job still waiting in the queue can be changed.');
        held = params.action === 'hold';
        position = held ? null : 1;
        return answer({ ...record, status: 'queue_source', updated_at: new Date().toISOString(), held, queue_position: position });
      }),
    );
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await startTextToImage('a fox that waits its turn');
    await user.click(await within(header()).findByRole('button', { name: 'Jobs, 1 running' }));
    const drawer = await screen.findByRole('dialog', { name: 'Jobs' });
    const job = await within(drawer).findByRole('listitem', { name: 'Text to Image, Queued' });
    expect(await within(job).findByText('2nd in your queue')).toBeInTheDocument();
    expect(within(job).queryByRole('button', { name: 'Resume Text to Image' })).not.toBeInTheDocument();

    await user.click(within(job).getByRole('button', { name: 'Hold Text to Image' }));
    const heldJob = await within(drawer).findByRole('listitem', { name: 'Text to Image, Held' });
    expect(heldJob).toHaveTextContent('Held: it starts once you resume it');
    expect(within(heldJob).queryByRole('button', { name: 'Run Text to Image next' })).not.toBeInTheDocument();
    await user.click(within(heldJob).getByRole('button', { name: 'Resume Text to Image' }));
    const resumed = await within(drawer).findByRole('listitem', { name: 'Text to Image, Queued' });
    expect(await within(resumed).findByText('1st in your queue')).toBeInTheDocument();

    await user.click(within(resumed).getByRole('button', { name: 'Run Text to Image next' }));
    expect(await within(resumed).findByRole('alert')).toHaveTextContent(
      'The job could not be moved up. This job has already started: only a job still waiting in the queue can be changed.',
    );
    expect(calls).toEqual(['hold', 'resume', 'run-next']);
  });

  it('lists a finished job as succeeded with a link to its result, and toasts it', async () => {
    fakeApi.credits = 50;
    fakeMedia.pollsToFinish = 1;
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await startTextToImage('a quiet harbour');
    expect(await screen.findByText('Text to Image finished')).toBeInTheDocument();
    await user.click(within(header()).getByRole('button', { name: 'Jobs, 0 running' }));
    const drawer = await screen.findByRole('dialog', { name: 'Jobs' });
    const job = await within(drawer).findByRole('listitem', { name: 'Text to Image, Succeeded' });
    expect(within(job).getByRole('link', { name: 'View result' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/ai-image\/text-to-image\?job=m\d+$/),
    );
    await user.click(within(job).getByRole('link', { name: 'View result' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Jobs' })).not.toBeInTheDocument());
    const highlighted = await screen.findByRole('article', { current: true });
    expect(within(highlighted).getByRole('img', { name: /a quiet harbour$/ })).toBeInTheDocument();
  });

  it('toasts a failed job with the reason', async () => {
    fakeMedia.pollsToFinish = 1;
    fakeMedia.outcome = 'failed';
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await startTextToImage('a doomed idea');
    expect(await screen.findByText('Text to Image failed: The render engine failed.')).toBeInTheDocument();
    await waitFor(() => expect(balance()).toHaveTextContent('100 credits'));
  });
});

describe('a hidden tab', { timeout: 20_000 }, () => {
  const setVisibility = (state: DocumentVisibilityState) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    document.dispatchEvent(new Event('visibilitychange'));
  };

  afterEach(() => {
    // Back to jsdom's own (prototype) getter.
    Reflect.deleteProperty(document, 'visibilityState');
  });

  it('pauses polling while the tab is hidden and finishes the job once it is shown again', async () => {
    fakeMedia.pollsToFinish = 2;
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Generate' })).toBeEnabled(), PAGE_LOAD);
    setVisibility('hidden');
    await startTextToImage('a lantern in the fog');

    await user.click(await screen.findByRole('button', { name: 'Jobs, 1 running' }));
    const drawer = await screen.findByRole('dialog', { name: 'Jobs' });
    expect(await within(drawer).findByRole('listitem', { name: 'Text to Image, Paused while the tab is hidden' })).toBeInTheDocument();
    const polls = () => fakeMedia.calls.filter((call) => call.endsWith('/processing-status')).length;
    const before = polls();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(polls()).toBe(before);

    setVisibility('visible');
    expect(await within(drawer).findByRole('listitem', { name: 'Text to Image, Succeeded' }, PAGE_LOAD)).toBeInTheDocument();
    expect(polls()).toBeGreaterThan(before);
  });
});

describe('desktop notifications', { timeout: 20_000 }, () => {
  class FakeNotification {
    static permission: NotificationPermission = 'default';
    static requestPermission = vi.fn(async () => {
      FakeNotification.permission = 'granted';
      return FakeNotification.permission;
    });
    static shown: { title: string; body: string | undefined }[] = [];
    constructor(title: string, options?: NotificationOptions) {
      FakeNotification.shown.push({ title, body: options?.body });
    }
  }

  afterEach(() => {
    vi.unstubAllGlobals();
    FakeNotification.permission = 'default';
    FakeNotification.shown = [];
  });

  it('asks for permission from the panel, then announces a job that ends while the person looks elsewhere', async () => {
    vi.stubGlobal('Notification', FakeNotification);
    fakeMedia.pollsToFinish = 1;
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    await user.click(await within(header()).findByRole('button', { name: 'Jobs, 0 running' }));
    const drawer = await screen.findByRole('dialog', { name: 'Jobs' });
    await user.click(within(drawer).getByRole('button', { name: 'Notify me on desktop' }));
    expect(FakeNotification.requestPermission).toHaveBeenCalled();
    await waitFor(() => expect(within(drawer).queryByRole('button', { name: 'Notify me on desktop' })).not.toBeInTheDocument());
    await user.keyboard('{Escape}');

    // The window goes behind another one while the job runs.
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    await startTextToImage('a comet over the sea');
    expect(await screen.findByText('Text to Image finished', {}, PAGE_LOAD)).toBeInTheDocument();
    expect(FakeNotification.shown).toEqual([{ title: 'Text to Image finished · Kinora', body: 'Seedream' }]);
  });

  it('shows nothing on the desktop while the person is looking at the page', async () => {
    FakeNotification.permission = 'granted';
    vi.stubGlobal('Notification', FakeNotification);
    fakeMedia.pollsToFinish = 1;
    await signedInAs(alice);
    renderApp('/ai-image/text-to-image');
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    await startTextToImage('a comet over the sea');
    expect(await screen.findByText('Text to Image finished', {}, PAGE_LOAD)).toBeInTheDocument();
    expect(FakeNotification.shown).toEqual([]);
  });
});

describe('a denied job', () => {
  const denied = {
    type: 'jobs.finished' as const,
    localId: 'job-1',
    tool: 'text-to-image',
    toolTitle: 'Text to Image',
    optionLabel: 'Seedream',
    outcome: 'denied' as const,
    refunded: false,
    mediaId: null,
  };

  it('says why: signed out is not "not enough credits"', () => {
    expect(phaseText({ phase: 'denied', progress: 0, error: MESSAGES.notAuthenticated })).toBe(MESSAGES.notAuthenticated);
    expect(finishedJobText({ ...denied, error: MESSAGES.notAuthenticated }, null)).toBe(`Text to Image: ${MESSAGES.notAuthenticated}`);
    const short = 'Not enough credits: this costs 4 credits and you have 1.';
    expect(phaseText({ phase: 'denied', progress: 0, error: short })).toBe(short);
    expect(finishedJobText({ ...denied, error: short }, null)).toBe(`Text to Image: ${short}`);
  });
});
