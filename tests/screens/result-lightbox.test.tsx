import { describe, expect, it } from 'vitest';
import { addMedia } from '../msw/media';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';
import { PAGE_LOAD, setUpJobTests } from './generation-helpers';
import { alice, signedInAs } from './session-helpers';

const user = userEvent.setup();

setUpJobTests();

const picture = (id: string) => ({ type: 'image' as const, status: 'success', url: `http://localhost/api/files/${id}.png`, thumbnail_url: null, file_id: id });

/** Two earlier jobs of Text to Image: a barn (one picture), then two foxes (the newest, listed first). */
function addResults() {
  addMedia({ id: 'barn', tool: 'text-to-image', status: 'success_image', option: 'Seedream', args: { prompt: 'an old barn', option: 'Seedream' }, items: [picture('barn')] });
  addMedia({
    id: 'foxes',
    tool: 'text-to-image',
    status: 'success_image',
    option: 'Seedream',
    args: { prompt: 'two foxes', option: 'Seedream' },
    items: [picture('fox-1'), picture('fox-2')],
  });
}

describe('result lightbox (issue 17)', () => {
  it('opens a result picture large, moves with Previous / Next and the arrow keys, offers the download and closes', async () => {
    await signedInAs(alice);
    addResults();
    renderApp('/ai-image/text-to-image');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2), PAGE_LOAD);
    const [foxes] = screen.getAllByRole('article');
    // The picture stays named by its description, inside a button that says what it does.
    const opener = within(foxes as HTMLElement).getByRole('button', { name: 'View 1.2.Seedream larger' });
    expect(within(opener).getByRole('img', { name: '1.2.Seedream: two foxes' })).toBeInTheDocument();
    await user.click(opener);

    const dialog = await screen.findByRole('dialog', { name: '1.2.Seedream' });
    expect(within(dialog).getByRole('img', { name: '1.2.Seedream: two foxes' })).toHaveAttribute('src', 'http://localhost/api/files/fox-2.png');
    expect(dialog).toHaveTextContent('2 of 3');
    expect(within(dialog).getByRole('link', { name: 'Download 1.2.Seedream' })).toHaveAttribute('href', 'http://localhost/api/files/fox-2.png');
    expect(within(dialog).getByRole('link', { name: 'Download 1.2.Seedream' })).toHaveAttribute('download');

    // Next: on to the older job's picture, the last one.
    await user.click(within(dialog).getByRole('button', { name: 'Next picture' }));
    const barn = await screen.findByRole('dialog', { name: '1.1.Seedream' });
    expect(within(barn).getByRole('img', { name: '1.1.Seedream: an old barn' })).toHaveAttribute('src', 'http://localhost/api/files/barn.png');
    expect(barn).toHaveTextContent('3 of 3');
    expect(within(barn).getByRole('button', { name: 'Next picture' })).toBeDisabled();

    // Arrow keys: back twice to the first picture, where Previous is disabled and a third Left stays.
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent('2 of 3'));
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent('1 of 3'));
    await user.keyboard('{ArrowLeft}');
    const first = screen.getByRole('dialog');
    expect(first).toHaveTextContent('1 of 3');
    expect(within(first).getByRole('img', { name: '1.1.Seedream: two foxes' })).toHaveAttribute('src', 'http://localhost/api/files/fox-1.png');
    expect(within(first).getByRole('button', { name: 'Previous picture' })).toBeDisabled();
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent('2 of 3'));

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
