import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { MediaResultCard } from '@/components/media/media-result-card';
import { mediaSchema } from '@/services/schemas/media';
import { fakeContent, resetFakeContent } from '../../msw/content';
import { API } from '../../msw/handlers';
import { addMedia, type FakeMediaRecord } from '../../msw/media';
import { server } from '../../msw/server';
import { render, screen, userEvent, waitFor, within } from '../../test-utils';
import { alice, signedInAs } from '../session-helpers';

const user = userEvent.setup();

beforeEach(() => resetFakeContent());

const finishedImage = (overrides: Partial<FakeMediaRecord> & Record<string, unknown> = {}) =>
  mediaSchema.parse(
    addMedia({
      id: 'm-fox',
      kind: 'image',
      tool: 'text-to-image',
      status: 'success_image',
      option: 'flux',
      args: { prompt: 'A red fox in the snow' },
      items: [{ type: 'image', status: 'success', url: 'http://localhost/api/files/fox.png', thumbnail_url: null, file_id: 'f1' }],
      ...overrides,
    }),
  );

const openShare = async () => {
  await user.click(screen.getByRole('button', { name: /^Share / }));
  return screen.findByRole('dialog', { name: 'Share this result' });
};

describe('sharing a finished result', () => {
  it('has no Share button on a result that did not finish', () => {
    const media = mediaSchema.parse(addMedia({ id: 'm-live', status: 'processing_source', progress: 40 }));
    render(<MediaResultCard media={media} highlighted={false} />);
    expect(screen.queryByRole('button', { name: /^Share/ })).not.toBeInTheDocument();
  });

  it('validates the form: a title is required and limited; nothing is sent', async () => {
    render(<MediaResultCard media={finishedImage()} highlighted={false} />);
    const dialog = await openShare();
    const title = within(dialog).getByRole('textbox', { name: /Title/ });
    // It offers the prompt as the title.
    expect(title).toHaveValue('A red fox in the snow');
    await user.clear(title);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Give it a title.')).toBeInTheDocument();
    expect(title).toHaveAttribute('aria-invalid', 'true');

    await user.click(title);
    await user.paste('x'.repeat(101));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('At most 100 characters.')).toBeInTheDocument();
    expect(fakeContent.shareRequests).toEqual([]);
  });

  it('saves title, description and visibility, then shows the link with Copy and where it appears', async () => {
    await signedInAs(alice);
    render(<MediaResultCard media={finishedImage()} highlighted={false} />);
    expect(screen.queryByLabelText(/^Visibility:/)).not.toBeInTheDocument();
    const dialog = await openShare();

    const radios = within(dialog).getByRole('radiogroup', { name: 'Who can see it' });
    expect(within(radios).getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual(['public', 'unlisted', 'private']);
    expect(within(radios).getByText('Only people with the link can see it.')).toBeInTheDocument();
    expect(within(radios).getByRole('radio', { name: /Public/ })).toBeChecked();

    const title = within(dialog).getByRole('textbox', { name: /Title/ });
    await user.clear(title);
    await user.type(title, 'Fox');
    await user.type(within(dialog).getByRole('textbox', { name: /Description/ }), 'Made at dawn.');
    await user.click(within(radios).getByRole('radio', { name: /Unlisted/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const link = await within(dialog).findByRole('textbox', { name: 'Link' });
    expect(link).toHaveValue(`${window.location.origin}/shared/m-fox`);
    expect(within(dialog).getByText(/does not appear on your profile or the Latest page/)).toBeInTheDocument();
    expect(fakeContent.shareRequests).toEqual([{ id: 'm-fox', body: { title: 'Fox', description: 'Made at dawn.', visibility: 'unlisted' } }]);

    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(await within(dialog).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(`${window.location.origin}/shared/m-fox`);

    // The card now says how it is shared.
    expect(screen.getByLabelText('Visibility: Unlisted')).toHaveTextContent('Unlisted');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the API’s message on failure and keeps what was typed', async () => {
    await signedInAs(alice);
    server.use(
      http.put(`${API}/media/:id/share`, () => HttpResponse.json({ detail: 'Only a finished result can be shared.' }, { status: 400 }), {
        once: true,
      }),
    );
    render(<MediaResultCard media={finishedImage({ visibility: 'public', title: 'Old title' })} highlighted={false} />);
    expect(screen.getByLabelText('Visibility: Public')).toBeInTheDocument();
    const dialog = await openShare();
    const title = within(dialog).getByRole('textbox', { name: /Title/ });
    expect(title).toHaveValue('Old title');
    await user.type(title, ' again');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Only a finished result can be shared.');
    expect(title).toHaveValue('Old title again');

    // Saving again (the server answers this time) goes through with the same values.
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('textbox', { name: 'Link' })).toBeInTheDocument();
    expect(fakeContent.shareRequests.at(-1)?.body).toMatchObject({ title: 'Old title again', visibility: 'public' });
  });
});
