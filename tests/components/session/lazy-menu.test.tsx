import { fireEvent } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loadMenu, Menu } from '@/components/session/lazy-menu';
import { render, screen, userEvent, waitFor } from '../../test-utils';

function AccountMenu() {
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <button type="button">Account menu</button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Signed in</Menu.Label>
        <Menu.Item>Account</Menu.Item>
        <Menu.Divider />
        <Menu.Item>Sign out</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

describe('lazy account menu', () => {
  it('opens once it arrives when its button was clicked before', async () => {
    render(<AccountMenu />);
    const button = screen.getByRole('button', { name: 'Account menu' });
    // Before the menu's chunk arrives: a closed menu button, no items.
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menuitem')).not.toBeInTheDocument();
    fireEvent.click(button);
    expect(await screen.findByRole('menuitem', { name: 'Account' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument();
    expect(screen.getByText('Signed in')).toBeInTheDocument();
  });

  it('behaves as Mantine’s Menu once loaded: closed until clicked, closed again by an item', async () => {
    await loadMenu();
    render(<AccountMenu />);
    expect(screen.queryByRole('menuitem')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Account' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(screen.queryByRole('menuitem')).not.toBeInTheDocument());
  });
});
