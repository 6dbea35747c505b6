import { Button } from '@mantine/core';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useConfirm } from '@/components/confirm/use-confirm';
import { render, screen, userEvent, waitFor, within } from '../../test-utils';

const DIALOG = { title: 'Delete this thing?', text: 'It goes for good.', cancel: 'Keep it', confirm: 'Delete' };

function Asker({ onConfirm }: { onConfirm: () => void }) {
  const confirm = useConfirm();
  return <Button onClick={() => confirm({ ...DIALOG, onConfirm })}>Ask</Button>;
}

/** The asking screen can go away while its dialog is open (a link, the back button). */
function Host({ onConfirm }: { onConfirm: () => void }) {
  const [shown, setShown] = useState(true);
  return (
    <>
      {shown && <Asker onConfirm={onConfirm} />}
      <button type="button" onClick={() => setShown(false)}>
        Leave
      </button>
    </>
  );
}

describe('useConfirm', () => {
  it('asks in a titled dialog with focus on Cancel, and confirms only on the red button', async () => {
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    render(<Asker onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    // The dialogs' host may still be downloading on the first question (see modals-host.tsx).
    const dialog = await screen.findByRole('dialog', { name: DIALOG.title });
    expect(within(dialog).getByText(DIALOG.text)).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByRole('button', { name: DIALOG.cancel })).toHaveFocus(), { timeout: 2000 });
    await user.click(within(dialog).getByRole('button', { name: DIALOG.cancel }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await user.click(within(screen.getByRole('dialog', { name: DIALOG.title })).getByRole('button', { name: DIALOG.confirm }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes the dialog when the screen that opened it goes away', async () => {
    const user = userEvent.setup();
    render(<Host onConfirm={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    expect(await screen.findByRole('dialog', { name: DIALOG.title })).toBeInTheDocument();
    // The dialog traps focus, so the screen leaves the way a route change would: not by a click.
    screen.getByRole('button', { name: 'Leave', hidden: true }).click();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 2000 });
  });
});
