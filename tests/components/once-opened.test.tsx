import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OnceOpened } from '@/components/once-opened';

describe('OnceOpened', () => {
  it('draws nothing until first opened, then keeps what it drew when closed again', () => {
    const { rerender } = render(
      <OnceOpened opened={false}>
        <p>dialog</p>
      </OnceOpened>,
    );
    expect(screen.queryByText('dialog')).not.toBeInTheDocument();
    rerender(
      <OnceOpened opened>
        <p>dialog</p>
      </OnceOpened>,
    );
    expect(screen.getByText('dialog')).toBeInTheDocument();
    // Kept, so a dialog's own closing transition can play.
    rerender(
      <OnceOpened opened={false}>
        <p>dialog</p>
      </OnceOpened>,
    );
    expect(screen.getByText('dialog')).toBeInTheDocument();
  });
});
