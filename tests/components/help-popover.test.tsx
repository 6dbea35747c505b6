import { describe, expect, it, vi } from 'vitest';
import { HelpButton, HelpTopicView, helpPopoverSize } from '@/components/help/help-popover';
import { SafeHtml, sanitizeHtml } from '@/components/help/safe-html';
import { HELP_TOPICS, SETTING_HELP_TOPICS, topicTutorial, youtubeEmbedUrl, type HelpTopic } from '@/config/help-topics';
import { setMobileViewport, setViewportWidth } from '../media-query';
import { render, screen, userEvent, waitFor, within } from '../test-utils';

const openHelp = async (title: string) => {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: `Help: ${title}` }));
  const popover = await screen.findByTestId('help-popover');
  // The tutorial and the description are their own chunk, loaded at the first open.
  await within(popover).findByTestId('help-topic-body');
  return { user, popover };
};

describe('the help popover', () => {
  it('shows the topic title, its tutorial file and its description, 500 px wide and 400 px high with a video', async () => {
    render(<HelpButton topicIndex={10} />);
    const { popover } = await openHelp('Aspect Ratio');
    expect(within(popover).getByRole('heading', { name: 'Aspect Ratio' })).toBeInTheDocument();
    expect(popover).toHaveTextContent('The shape of the result');
    const video = within(popover).getByLabelText('Tutorial: Aspect Ratio');
    expect(video.tagName).toBe('VIDEO');
    expect(video.getAttribute('src')).toBe('/tutorial/aspect-ratio-desktop.mp4');
    expect(popover.style.width).toBe('500px');
    expect(popover.style.maxWidth).toBe('calc(100vw - 30px)');
    expect(popover.style.height).toBe('400px');
    expect(within(popover).getByTestId('help-popover-body').style.overflowY).toBe('auto');
  });

  it('chooses the mobile file below 768 px and the desktop file on a tablet', async () => {
    setMobileViewport();
    const { unmount } = render(<HelpButton topicIndex={4} />);
    let { popover } = await openHelp('Share');
    expect(popover.querySelector('[data-device]')).toHaveAttribute('data-device', 'mobile');
    expect(within(popover).getByTestId('help-tutorial-video').getAttribute('src')).toBe('/tutorial/share-mobile.mp4');
    unmount();

    setViewportWidth(800);
    render(<HelpButton topicIndex={4} />);
    ({ popover } = await openHelp('Share'));
    expect(within(popover).getByTestId('help-tutorial-video').getAttribute('src')).toBe('/tutorial/share-desktop.mp4');
  });

  it('moves through the topics with previous / next and disables them at the ends', async () => {
    render(<HelpButton topicIndex={39} />);
    const { user, popover } = await openHelp('Video Effects');
    const next = within(popover).getByRole('button', { name: 'Next help topic' });
    const previous = within(popover).getByRole('button', { name: 'Previous help topic' });
    await user.click(next);
    expect(within(popover).getByRole('heading', { name: 'LoRA Finetune' })).toBeInTheDocument();
    expect(popover).toHaveTextContent('41 / 41');
    expect(next).toBeDisabled();
    expect(within(popover).getByTestId('help-tutorial-video').getAttribute('src')).toBe('/tutorial/lora-finetune-desktop.mp4');
    await user.click(previous);
    await user.click(previous);
    expect(within(popover).getByRole('heading', { name: 'Extend Video' })).toBeInTheDocument();
    expect(next).toBeEnabled();
  });

  it('moves focus into the popover; Escape closes it and gives focus back to the button', async () => {
    render(<HelpButton topicIndex={8} />);
    const { user, popover } = await openHelp('Quantity');
    await waitFor(() => expect(popover.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('help-popover')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Help: Quantity' })).toHaveFocus();
  });

  it('closes with the X and reopens on its own topic', async () => {
    render(<HelpButton topicIndex={8} />);
    const { user, popover } = await openHelp('Quantity');
    await user.click(within(popover).getByRole('button', { name: 'Next help topic' }));
    await user.click(within(popover).getByRole('button', { name: 'Close help' }));
    await waitFor(() => expect(screen.queryByTestId('help-popover')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Help: Quantity' }));
    expect(await screen.findByRole('heading', { name: 'Quantity' })).toBeInTheDocument();
  });
});

const topicWith = (changes: Partial<HelpTopic>): HelpTopic => ({ ...(HELP_TOPICS[4] as HelpTopic), ...changes });

describe('the topic view', () => {
  const handlers = { onPrevious: vi.fn(), onNext: vi.fn(), onClose: vi.fn() };

  it('embeds the video-host tutorial when a topic has a link, instead of the file', async () => {
    render(
      <HelpTopicView
        topic={topicWith({ youtube_link: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' })}
        topicCount={41}
        device="desktop"
        titleId="t"
        hasPrevious
        hasNext
        {...handlers}
      />,
    );
    const frame = await screen.findByTitle('Tutorial: Share');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    expect(screen.queryByTestId('help-tutorial-video')).not.toBeInTheDocument();
  });

  it('shows no player when a topic has no tutorial, and the popover is then 200 px high', () => {
    render(
      <HelpTopicView
        topic={topicWith({ video_desktop: null, video_mobile: null })}
        topicCount={41}
        device="desktop"
        titleId="t"
        hasPrevious={false}
        hasNext
        {...handlers}
      />,
    );
    expect(screen.queryByTestId('help-tutorial-video')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous help topic' })).toBeDisabled();
    expect(helpPopoverSize(false).height).toBe(200);
    expect(helpPopoverSize(true).height).toBe(400);
  });
});

describe('tutorial choice', () => {
  it('points the setting help buttons at the SPEC §2.10 indices', () => {
    expect(SETTING_HELP_TOPICS).toEqual({
      share: 4,
      shareOptions: 5,
      quantity: 8,
      aspectRatio: 10,
      videoSettings: 16,
      ideaForStory: 22,
      duration: 23,
      finetuneOptions: 32,
      faceOrderIndex: 33,
    });
  });

  it('reads the usual video-host link forms and refuses anything else', () => {
    const embed = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ';
    expect(youtubeEmbedUrl('https://youtu.be/dQw4w9WgXcQ')).toBe(embed);
    expect(youtubeEmbedUrl('https://www.youtube.com/embed/dQw4w9WgXcQ')).toBe(embed);
    expect(youtubeEmbedUrl('https://youtube.com/shorts/dQw4w9WgXcQ')).toBe(embed);
    expect(youtubeEmbedUrl('http://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBeNull();
    expect(youtubeEmbedUrl('https://evil.example/watch?v=dQw4w9WgXcQ')).toBeNull();
    expect(youtubeEmbedUrl('javascript:alert(1)')).toBeNull();
  });

  it('falls back to the file when the link is unusable, and uses the media host when one is set', () => {
    const topic = topicWith({ youtube_link: 'https://evil.example/x' });
    expect(topicTutorial(topic, 'mobile', 'https://media.kinora.app')).toEqual({
      kind: 'file',
      src: 'https://media.kinora.app/tutorial/share-mobile.mp4',
    });
    expect(topicTutorial(topicWith({ video_desktop: null, video_mobile: null }), 'desktop', '')).toBeNull();
  });
});

describe('SafeHtml', () => {
  it('strips scripts and event handlers and keeps the markup', () => {
    const html = '<p>Hello <b>there</b></p><script>window.hacked = true</script><img src="x" onerror="window.hacked = true"><a href="javascript:alert(1)">link</a>';
    const { container } = render(<SafeHtml html={html} />);
    expect(container.querySelector('b')).toHaveTextContent('there');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(container.querySelector('a')?.getAttribute('href')).toBeNull();
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
    expect(sanitizeHtml('<svg><script>1</script></svg><p>ok</p>')).toBe('<p>ok</p>');
  });
});
