import { describe, expect, it } from 'vitest';
import { MENU } from '@/config/menu';
import { NotFoundScreen } from '@/screens/not-found/not-found-screen';
import { ProfileScreen } from '@/screens/profile/profile-screen';
import { GroupIndexScreen } from '@/screens/tools/group-index-screen';
import { ToolPlaceholderScreen } from '@/screens/tools/tool-placeholder-screen';
import { UseCaseScreen } from '@/screens/use-cases/use-case-screen';
import { render, screen, within } from '../test-utils';

describe('not-found screen', () => {
  it('says the page does not exist and links home', () => {
    render(<NotFoundScreen />);
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the home page' })).toHaveAttribute('href', '/');
  });
});

describe('profile screen', () => {
  it('shows the handle', () => {
    render(<ProfileScreen handle="alice" />);
    expect(screen.getByRole('heading', { level: 1, name: '@alice' })).toBeInTheDocument();
  });
});

describe('tool placeholder screen', () => {
  it('shows the tool title, a link to its group and "Coming soon"', () => {
    render(<ToolPlaceholderScreen title="Face Swap" groupLabel="AI Image" groupPath="/ai-image/" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Face Swap' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'AI Image' })).toHaveAttribute('href', '/ai-image/');
    expect(screen.getByText('Coming soon')).toBeInTheDocument();
  });
});

describe('group index screen', () => {
  it('lists every tool of the group as a link', () => {
    const video = MENU.find((group) => group.label === 'AI Video');
    if (!video) throw new Error('AI Video group missing from the menu');
    render(<GroupIndexScreen group={video} />);
    expect(screen.getByRole('heading', { level: 1, name: 'AI Video' })).toBeInTheDocument();
    const links = within(screen.getByRole('list', { name: 'AI Video tools' })).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/ai-video/ai-motion',
      '/ai-video/character-animate',
      '/ai-video/try-on',
      '/ai-video/edit-video',
      '/ai-video/video-effects',
      '/ai-video/lip-sync',
      '/ai-video/replace-background-video',
      '/ai-video/modify-video',
      // Beside the menu's tools: the parallax page (SPEC §2.4), the albums and the upload page.
      '/ai-video/parallax-motion',
      '/ai-video/albums',
      '/ai-video/upload-video',
    ]);
  });
});

describe('use-case screen', () => {
  it('shows the title only, since SPEC does not give the content', () => {
    render(<UseCaseScreen title="Restaurants" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Restaurants' })).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});
