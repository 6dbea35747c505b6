import { describe, expect, it } from 'vitest';
import { MENU } from '@/config/menu';
import { renderApp, screen, userEvent, waitFor, within } from '../test-utils';

const menu = () => screen.getByRole('navigation', { name: 'Main menu' });
const toggle = (group: string) => within(menu()).getByRole('button', { name: `${group} tools` });
const link = (name: string) => within(menu()).queryByRole('link', { name });

describe('collapsible menu groups (issue 17)', () => {
  it('starts with every group folded on a page outside them, each header and its toggle in view', () => {
    renderApp('/');
    for (const group of MENU) {
      expect(within(menu()).getByRole('link', { name: group.label })).toHaveAttribute('href', group.path);
      expect(toggle(group.label)).toHaveAttribute('aria-expanded', 'false');
      expect(document.getElementById(toggle(group.label).getAttribute('aria-controls') ?? '')).not.toBeVisible();
    }
    expect(link('Text to Speech')).not.toBeInTheDocument();
    expect(link('LoRA Finetune')).not.toBeInTheDocument();
  });

  it('opens the group of the current page, with the current link marked, Kinora pages included', async () => {
    renderApp('/ai-video/albums');
    expect(toggle('AI Video')).toHaveAttribute('aria-expanded', 'true');
    expect(toggle('AI Audio')).toHaveAttribute('aria-expanded', 'false');
    expect(link('Albums')).toHaveAttribute('aria-current', 'page');
    expect(link('Parallax Motion')).toHaveAttribute('href', '/ai-video/parallax-motion');
    expect(link('Upload Video')).toHaveAttribute('href', '/ai-video/upload-video');
    // A page below a group's page (an album) belongs to the group too.
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
  });

  it('unfolds and folds a group by its toggle, and keeps groups unfolded while the person moves on', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/ai-audio/text-to-speech');
    expect(link('Sound Effects')).toBeInTheDocument();

    await user.click(toggle('AI Image'));
    expect(toggle('AI Image')).toHaveAttribute('aria-expanded', 'true');
    expect(link('Reimagine')).toHaveAttribute('href', '/ai-image/reimagine');

    await user.click(toggle('AI Audio'));
    expect(toggle('AI Audio')).toHaveAttribute('aria-expanded', 'false');
    expect(link('Sound Effects')).not.toBeInTheDocument();

    // Another group's page unfolds its group; the one the person unfolded stays so.
    await router.navigate('/ai-production/finetune');
    await waitFor(() => expect(toggle('AI Production')).toHaveAttribute('aria-expanded', 'true'));
    expect(link('LoRA Finetune')).toHaveAttribute('aria-current', 'page');
    expect(toggle('AI Image')).toHaveAttribute('aria-expanded', 'true');
    expect(toggle('AI Audio')).toHaveAttribute('aria-expanded', 'false');
  });

  it('reaches every tool page of every group once all are unfolded', async () => {
    const user = userEvent.setup();
    renderApp('/');
    for (const group of MENU) await user.click(toggle(group.label));
    for (const group of MENU) {
      for (const item of [...group.items, ...group.extras]) {
        expect(within(menu()).getAllByRole('link', { name: item.label }).map((found) => found.getAttribute('href'))).toContain(item.path);
      }
    }
  });
});
