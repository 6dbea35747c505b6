import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { EditQueuedJobModal } from '@/components/jobs/edit-queued-job-modal';
import { buildMedia } from '../../services/media.fixtures';
import { render, screen, waitFor, within } from '../../test-utils';

/**
 * Edit before it runs (issue 21 item 2): besides the model, prompt and aspect ratio, a waiting
 * speech job's voice and a sound's duration can be changed, each where its tool asks for it.
 */
describe('the edit form of a waiting job', () => {
  it('changes a speech job’s voice, starting from the one it was queued with', async () => {
    const onSave = vi.fn();
    const media = buildMedia({ kind: 'audio', tool: 'text-to-speech', option: 'Text2Speech', args: { prompt: 'Hello there', voice: 'Roger' } });
    render(<EditQueuedJobModal media={media} toolTitle="Text to Speech" onSave={onSave} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Edit Text to Speech before it runs' });
    const voice = within(dialog).getByRole('combobox', { name: 'Voice' });
    expect(voice).toHaveValue('Roger');
    expect(within(dialog).queryByRole('textbox', { name: 'Duration (seconds)' })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(voice);
    await user.click(await screen.findByRole('option', { name: 'Matilda' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith({ option: 'Text2Speech', prompt: 'Hello there', voice: 'Matilda' });
  });

  it('changes a sound’s duration within the tool’s bounds, and says what is wrong when it is left empty', async () => {
    const onSave = vi.fn();
    const media = buildMedia({ kind: 'audio', tool: 'text-to-audio', option: 'Text2Audio', args: { prompt: 'rain on a tin roof', duration: 5 } });
    render(<EditQueuedJobModal media={media} toolTitle="Sound Effects" onSave={onSave} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Edit Sound Effects before it runs' });
    expect(within(dialog).queryByRole('combobox', { name: 'Voice' })).not.toBeInTheDocument();
    const duration = within(dialog).getByRole('textbox', { name: 'Duration (seconds)' });
    expect(duration).toHaveValue('5');
    const user = userEvent.setup();
    await user.clear(duration);
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText('Enter a whole number of seconds from 1 to 30')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
    // Past the longest sound, the field brings the number back to it as it is left (as the tool's form does).
    await user.type(duration, '45');
    await user.tab();
    expect(duration).toHaveValue('30');

    await user.clear(duration);
    await user.type(duration, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith({ option: 'Text2Audio', prompt: 'rain on a tin roof', duration: 12 });
  });
});
