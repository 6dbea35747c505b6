import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { inspect } from '@/lib/inspection/hub';
import { bannerMachine } from '@/machines/banner/banner.machine';
import { InspectorScreen } from '@/screens/inspector/inspector-screen';
import { render, screen, userEvent, waitFor, within } from '../test-utils';
import { alice, signedInAs } from './session-helpers';

describe('machine inspector screen', () => {
  it('tells people outside the Developer group that it is not available', async () => {
    await signedInAs(alice);
    render(<InspectorScreen />, { route: '/inspector' });
    expect(await screen.findByText('Not available')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
  });

  it('draws the chosen actor’s statechart and moves the highlight when the actor moves', async () => {
    await signedInAs({ ...alice, groups: ['Developer'] });
    const banner = createActor(bannerMachine, { id: 'test-banner', inspect }).start();
    const user = userEvent.setup();
    render(<InspectorScreen />, { route: '/inspector?actor=test-banner' });

    const diagram = await screen.findByRole('img', { name: 'Statechart of Top banner' }, { timeout: 20_000 });
    expect(within(diagram).getByRole('group', { name: 'machine banner' })).toBeInTheDocument();
    expect(within(diagram).getByRole('group', { name: 'state hidden (current)' })).toBeInTheDocument();
    expect(within(diagram).getByRole('group', { name: 'state visible' })).toBeInTheDocument();
    expect(within(diagram).getAllByText('banner.show')).toHaveLength(2);
    expect(within(diagram).getByText('banner.dismiss')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Top banner.*test-banner/, pressed: true })).toBeInTheDocument();

    banner.send({ type: 'banner.show', kind: 'success', message: 'Saved' });
    await waitFor(() => expect(within(diagram).getByRole('group', { name: 'state visible (current)' })).toBeInTheDocument());
    expect(within(diagram).getByRole('group', { name: 'state hidden' })).toBeInTheDocument();
    expect(screen.getByTestId('inspector-current-state')).toHaveTextContent('visible');
    expect(screen.getByRole('treeitem', { name: 'message: "Saved"' })).toBeInTheDocument();
    const log = screen.getByRole('table', { name: 'Event log' });
    // The banner has two regions since issue 17 (the notice, the connection): its states show as JSON.
    expect(within(log).getByRole('row', { name: /banner\.show.*"notice":"hidden".*→.*"notice":"visible"/ })).toBeInTheDocument();

    // Paused: the view stays where it was while the actor moves on.
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    banner.send({ type: 'banner.dismiss' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(diagram).getByRole('group', { name: 'state visible (current)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Step back' }));
    expect(within(diagram).getByRole('group', { name: 'state hidden (current)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(screen.getByTestId('inspector-current-state')).toHaveTextContent('hidden'));
    expect(within(log).queryAllByRole('row')).not.toHaveLength(0);
    banner.stop();
  });

  it('zooms the chart and finds an event on it, stepping through the matches from the keyboard', async () => {
    await signedInAs({ ...alice, groups: ['Developer'] });
    const banner = createActor(bannerMachine, { id: 'zoom-banner', inspect }).start();
    const user = userEvent.setup();
    render(<InspectorScreen />, { route: '/inspector?actor=zoom-banner' });
    const diagram = await screen.findByRole('img', { name: 'Statechart of Top banner' }, { timeout: 20_000 });
    const view = screen.getByRole('toolbar', { name: 'Chart view' });
    const width = Number(diagram.getAttribute('width'));
    expect(within(view).getByRole('status', { name: 'Zoom' })).toHaveTextContent('100 %');

    await user.click(within(view).getByRole('button', { name: 'Zoom in' }));
    expect(within(view).getByRole('status', { name: 'Zoom' })).toHaveTextContent('125 %');
    expect(Number(diagram.getAttribute('width'))).toBe(Math.round(width * 1.25));
    await user.click(within(view).getByRole('button', { name: '100 %' }));
    expect(Number(diagram.getAttribute('width'))).toBe(width);

    // banner.show labels two transitions: the first is shown, Enter moves to the second.
    await user.type(within(view).getByRole('searchbox', { name: 'Find a state or event' }), 'banner.SHOW');
    expect(within(view).getByText('1 of 2')).toBeInTheDocument();
    expect(within(diagram).getAllByRole('group', { name: /^transition banner\.show \(found/ })).toHaveLength(2);
    expect(within(diagram).getAllByRole('group', { name: 'transition banner.show (found, shown)' })).toHaveLength(1);
    await user.keyboard('{Enter}');
    expect(within(view).getByText('2 of 2')).toBeInTheDocument();
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    expect(within(view).getByText('1 of 2')).toBeInTheDocument();

    await user.clear(within(view).getByRole('searchbox', { name: 'Find a state or event' }));
    await user.type(within(view).getByRole('searchbox', { name: 'Find a state or event' }), 'visible');
    expect(within(view).getByText('1 of 1')).toBeInTheDocument();
    expect(within(diagram).getByRole('group', { name: 'state visible (found, shown)' })).toBeInTheDocument();
    await user.type(within(view).getByRole('searchbox', { name: 'Find a state or event' }), 'xyz');
    expect(within(view).getByText('No match')).toBeInTheDocument();
    banner.stop();
  });

  it('sends an event the actor’s state takes, with a payload, and shows the transition; refuses one it does not', async () => {
    await signedInAs({ ...alice, groups: ['Developer'] });
    const banner = createActor(bannerMachine, { id: 'send-banner', inspect }).start();
    const user = userEvent.setup();
    render(<InspectorScreen />, { route: '/inspector?actor=send-banner' });
    const diagram = await screen.findByRole('img', { name: 'Statechart of Top banner' }, { timeout: 20_000 });
    const panel = screen.getByRole('region', { name: 'Send an event' });
    const events = within(panel).getByRole('combobox', { name: 'Event' });
    expect(within(events).getByRole('option', { name: 'banner.show' })).toBeInTheDocument();

    // Only what the current state (hidden) names is offered: no dismiss.
    expect(within(events).queryByRole('option', { name: 'banner.dismiss' })).not.toBeInTheDocument();

    // A payload that is not JSON is refused before anything is sent.
    await user.selectOptions(events, 'banner.show');
    const payload = within(panel).getByRole('textbox', { name: /Payload/ });
    await user.click(payload);
    await user.paste('{"kind": success}');
    await user.click(within(panel).getByRole('button', { name: 'Send' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('The payload is not JSON');
    expect(within(diagram).getByRole('group', { name: 'state hidden (current)' })).toBeInTheDocument();

    await user.clear(payload);
    await user.paste('{"kind": "success", "message": "Sent from the inspector"}');
    await user.click(within(panel).getByRole('button', { name: 'Send' }));
    expect(await within(panel).findByRole('status')).toHaveTextContent('Sent banner.show.');
    await waitFor(() => expect(within(diagram).getByRole('group', { name: 'state visible (current)' })).toBeInTheDocument());
    expect(banner.getSnapshot().context).toMatchObject({ message: 'Sent from the inspector' });
    banner.stop();
  });

  it('collapses and expands the context tree by keyboard', async () => {
    await signedInAs({ ...alice, groups: ['Developer'] });
    const banner = createActor(bannerMachine, { id: 'tree-banner', inspect }).start();
    banner.send({ type: 'banner.show', kind: 'error', message: 'Oops' });
    const user = userEvent.setup();
    render(<InspectorScreen />, { route: '/inspector?actor=tree-banner' });
    const toggle = await screen.findByRole('button', { name: 'Collapse context' });
    expect(screen.getByRole('treeitem', { name: 'kind: "error"' })).toBeInTheDocument();
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('treeitem', { name: 'kind: "error"' })).not.toBeInTheDocument();
    await user.keyboard(' ');
    expect(screen.getByRole('treeitem', { name: 'kind: "error"' })).toBeInTheDocument();
    banner.stop();
  });
});
