import { describe, expect, it } from 'vitest';
import { MediaResultCard } from '@/components/media/media-result-card';
import { mediaSchema } from '@/services/schemas/media';
import { addMedia } from '../msw/media';
import { render, renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { PAGE_LOAD, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

/** The help buttons beside tool settings (issue 8 Build 2): each opens its SPEC §2.10 topic. */

const user = userEvent.setup();
setUpJobTests();

const generate = () => screen.getByRole('button', { name: 'Generate' });

async function openSignedIn(path: string) {
  await signedInAs(alice);
  renderApp(path);
  await waitFor(() => expect(generate()).toBeEnabled(), PAGE_LOAD);
}

async function expectTopicOpens(buttonName: string, topicTitle: string) {
  await user.click(screen.getByRole('button', { name: buttonName }));
  const popover = await screen.findByTestId('help-popover');
  expect(within(popover).getByRole('heading', { name: topicTitle })).toBeInTheDocument();
  await user.click(within(popover).getByRole('button', { name: 'Close help' }));
  await waitFor(() => expect(screen.queryByTestId('help-popover')).not.toBeInTheDocument());
}

describe('help beside the settings of a tool', { timeout: 60_000 }, () => {
  it('Text to Image: the aspect ratio has its help, beside the tool title\'s', async () => {
    await openSignedIn('/ai-image/text-to-image');
    expect(screen.getByRole('button', { name: 'Help: Text To Image' })).toBeInTheDocument();
    await expectTopicOpens('Help: Aspect Ratio', 'Aspect Ratio');
  });

  it('Face Swap: each face order index has its help', async () => {
    await openSignedIn('/ai-image/face-swap');
    const buttons = await screen.findAllByRole('button', { name: 'Help: Face Order Index' });
    expect(buttons.length).toBeGreaterThan(0);
    await user.click(buttons[0] as HTMLElement);
    expect(await screen.findByText(/counted 0, 1, 2 from left to right/)).toBeInTheDocument();
  });

  it('AI Motion: video settings, quantity and duration have their help', async () => {
    await openSignedIn('/ai-video/ai-motion');
    await expectTopicOpens('Help: Video Settings', 'Video Settings');
    await expectTopicOpens('Help: Quantity', 'Quantity');
    await expectTopicOpens('Help: Duration', 'Duration');
  });
});

describe('help in the share form', () => {
  it('opens Share and Share Options; Escape closes the help only and gives focus back', async () => {
    const media = mediaSchema.parse(
      addMedia({
        id: 'm-help',
        kind: 'image',
        tool: 'text-to-image',
        status: 'success_image',
        option: 'flux',
        args: { prompt: 'A fox' },
        items: [{ type: 'image', status: 'success', url: 'http://localhost/api/files/fox.png', thumbnail_url: null, file_id: 'f1' }],
      }),
    );
    render(<MediaResultCard media={media} highlighted={false} />);
    await user.click(screen.getByRole('button', { name: /^Share / }));
    const dialog = await screen.findByRole('dialog', { name: 'Share this result' });
    await user.click(within(dialog).getByRole('button', { name: 'Help: Share' }));
    expect(await screen.findByRole('heading', { name: 'Share' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('help-popover')).not.toBeInTheDocument());

    const optionsHelp = within(dialog).getByRole('button', { name: 'Help: Share Options' });
    await user.click(optionsHelp);
    expect(await screen.findByRole('heading', { name: 'Share Options' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('help-popover')).not.toBeInTheDocument());
    expect(optionsHelp).toHaveFocus();
    expect(screen.getByRole('dialog', { name: 'Share this result' })).toBeInTheDocument();
  });
});
