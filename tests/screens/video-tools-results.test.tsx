import { render as rtlRender } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/app';
import { ToolResults } from '@/components/media/tool-results';
import { disabledTelemetry } from '@/services/telemetry';
import { addMedia, type FakeMediaRecord } from '../msw/media';
import { screen, testSessionInput, waitFor, within } from '../test-utils';
import { PAGE_LOAD, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

setUpJobTests();

/** ToolResults on its own page (as a video creation page uses it), inside the app's providers. */
function renderResults(element: ReactElement, route = '/results') {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [route] });
  return rtlRender(
    <AppProviders telemetry={disabledTelemetry} sessionInput={testSessionInput(route)} mantineEnv="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

const base = 'http://localhost/api/files/m/p1/4102444800/sig';
const videoItem = (folder: string, label: string | null): FakeMediaRecord['items'][number] => ({
  type: 'video',
  status: 'success',
  url: `${base}/${folder}/video.mp4`,
  thumbnail_url: `${base}/${folder}/thumbnail/thumbnail.jpg`,
  gif_url: `${base}/${folder}/video.gif`,
  folder_path: folder,
  label,
  file_id: folder,
});

describe('video results', () => {
  it('lists a creation type\'s videos by tool and kind: one player per video, labelled, with the ribbon', async () => {
    await signedInAs(alice);
    addMedia({
      id: 'p1',
      kind: 'video',
      tool: 'parallax-motion',
      status: 'success',
      option: 'Parallax',
      base_url: base,
      args: { creation_type: 'parallax-motion', prompt: 'a harbour at dusk' },
      items: [videoItem('batch/1/HorizontalArc', '1.1.Horizontal'), videoItem('batch/1/Circular', '1.2.Circular')],
    });
    // Another tool's video is not listed here.
    addMedia({ id: 'other', kind: 'video', tool: 'ai-motion', status: 'success', items: [videoItem('batch/1/Auto', '1.1.Auto')] });
    renderResults(<ToolResults tool="parallax-motion" kind="video" title="Your parallax videos" />);

    const region = await screen.findByRole('region', { name: 'Your parallax videos' }, PAGE_LOAD);
    const card = await within(region).findByRole('article', {}, PAGE_LOAD);
    expect(within(card).getByText('Parallax', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    const players = card.querySelectorAll('video');
    expect(players).toHaveLength(2);
    expect(within(card).getByLabelText('1.1.Horizontal: a harbour at dusk')).toHaveAttribute('src', `${base}/batch/1/HorizontalArc/video.mp4`);
    expect(within(card).getByLabelText('1.1.Horizontal: a harbour at dusk')).toHaveAttribute(
      'poster',
      `${base}/batch/1/HorizontalArc/thumbnail/thumbnail.jpg`,
    );
    expect(within(card).getByLabelText('1.2.Circular: a harbour at dusk')).toHaveAttribute('src', `${base}/batch/1/Circular/video.mp4`);
    expect(within(card).getByRole('link', { name: 'GIF 1.2.Circular' })).toHaveAttribute('href', `${base}/batch/1/Circular/video.gif`);
    expect(within(card).getByRole('link', { name: 'Download MP4 1.1.Horizontal' })).toHaveAttribute('download');
    expect(within(card).getByRole('link', { name: 'Extend 1.2.Circular' })).toHaveAttribute('href', '/ai-video/ai-motion?extend=p1&item=1');
    expect(within(card).getByRole('link', { name: 'Edit 1.1.Horizontal' })).toHaveAttribute('href', '/ai-video/edit-video?video=p1&item=0');
    expect(screen.queryByLabelText(/^1\.1\.Auto/)).not.toBeInTheDocument();
  });

  it('labels a video without a server label by SPEC §3 and shows each creation type\'s ribbon', async () => {
    await signedInAs(alice);
    addMedia({
      id: 'a1',
      kind: 'video',
      tool: 'ai-motion',
      status: 'success',
      option: 'KlingAI',
      args: { creation_type: 'ai-motion', option: 'KlingAI', aspect_ratio: '9:16' },
      items: [videoItem('batch/1/Auto', null)],
    });
    addMedia({
      id: 'x1',
      kind: 'video',
      tool: 'ai-motion',
      status: 'success',
      option: 'KlingAI',
      args: { creation_type: 'extend-video', option: 'KlingAI' },
      items: [videoItem('batch/1/Auto', '1.1.KlingAI')],
    });
    renderResults(<ToolResults tool="ai-motion" kind="video" />);
    const region = await screen.findByRole('region', { name: 'Results' }, PAGE_LOAD);
    await waitFor(() => expect(within(region).getAllByRole('article')).toHaveLength(2), PAGE_LOAD);
    const [extension, motion] = within(region).getAllByRole('article') as [HTMLElement, HTMLElement];
    expect(within(motion).getByText('AI-motion')).toBeInTheDocument();
    expect(within(motion).getByLabelText('1.1.9:16')).toBeInTheDocument();
    // Extending has no ribbon (SPEC §2.4).
    expect(within(extension).queryByText('AI-motion')).not.toBeInTheDocument();
    expect(within(extension).getByLabelText('1.1.KlingAI')).toBeInTheDocument();
  });

  it('shows a video that has no GIF without a GIF link', async () => {
    await signedInAs(alice);
    addMedia({
      id: 'g1',
      kind: 'video',
      tool: 'try-on-video',
      status: 'success',
      option: 'TryOnVideo',
      args: { creation_type: 'try-on' },
      items: [{ ...videoItem('batch/1/Auto', null), gif_url: null }],
    });
    renderResults(<ToolResults tool="try-on-video" kind="video" />);
    const card = await screen.findByRole('article', {}, PAGE_LOAD);
    expect(within(card).getByText('Try-on')).toBeInTheDocument();
    // SPEC §3: a try-on video is labelled by its model, KlingTryOn by default.
    expect(within(card).getByRole('link', { name: 'Download MP4 1.1.KlingTryOn' })).toBeInTheDocument();
    expect(within(card).queryByRole('link', { name: /^GIF/ })).not.toBeInTheDocument();
  });
});
