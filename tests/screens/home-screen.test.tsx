import { describe, expect, it } from 'vitest';
import { HomeScreen } from '@/screens/home/home-screen';
import { render, screen, within } from '../test-utils';

describe('home screen', () => {
  it('introduces Kinora and what it does', () => {
    render(<HomeScreen />);
    expect(screen.getByRole('heading', { level: 1, name: 'Kinora' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'What Kinora does' })).toBeInTheDocument();
    expect(screen.getByText(/pay only for what you generate/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/authentication');
  });

  it('links into every tool group', () => {
    render(<HomeScreen />);
    const tools = screen.getByRole('region', { name: 'Tools' });
    const groups = within(tools).getAllByRole('link');
    expect(groups.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['AI Audio', '/ai-audio/'],
      ['AI Image', '/ai-image/'],
      ['AI Video', '/ai-video/'],
      ['AI Production', '/ai-production/'],
    ]);
    expect(within(tools).getByRole('article', { name: 'AI Audio' })).toHaveTextContent('Text to Music');
  });
});
