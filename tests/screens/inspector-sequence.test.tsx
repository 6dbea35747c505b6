import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup } from 'xstate';
import { SequenceDiagram } from '@/components/inspector/sequence-diagram';
import { inspect } from '@/lib/inspection/hub';
import { layoutSequence } from '@/lib/inspection/sequence';
import { InspectorScreen } from '@/screens/inspector/inspector-screen';
import { render, screen, userEvent, waitFor, within } from '../test-utils';
import { alice, signedInAs } from './session-helpers';

/** A machine that calls a service each time it is told to: the sequence view's lanes and arrows. */
const fetcher = setup({
  types: { events: {} as { type: 'fetcher.go' } },
  actors: { fetchThing: fromPromise(async () => 'thing') },
}).createMachine({
  id: 'fetcher',
  initial: 'idle',
  states: {
    idle: { on: { 'fetcher.go': 'fetching' } },
    fetching: { invoke: { src: 'fetchThing', onDone: 'idle' } },
  },
});

const arrowsIn = (diagram: HTMLElement, selector = '') => [...diagram.querySelectorAll(`g[data-event]${selector}`)];

describe('machine inspector: the sequence view', () => {
  it('shows the chosen actor’s messages and service calls beside the statechart, and freezes with the view', async () => {
    await signedInAs({ ...alice, groups: ['Developer'] });
    const actor = createActor(fetcher, { id: 'seq-fetcher', inspect }).start();
    actor.send({ type: 'fetcher.go' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const user = userEvent.setup();
    render(<InspectorScreen />, { route: '/inspector?actor=seq-fetcher' });
    await screen.findByRole('button', { name: /seq-fetcher/, pressed: true });

    // The statechart is the default; the sequence is one choice away.
    expect(screen.getByRole('radio', { name: 'Statechart' })).toBeChecked();
    expect(screen.queryByRole('img', { name: 'Sequence of actors' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Sequence' }));
    const diagram = await screen.findByRole('img', { name: 'Sequence of actors' });

    // Lanes: the outside (the test's sends), the machine, then its service.
    const lanes = [...diagram.querySelectorAll('[data-lane]')].map((lane) => [lane.getAttribute('data-lane'), lane.getAttribute('data-lane-kind')]);
    expect(lanes).toEqual([
      ['outside', 'outside'],
      ['seq-fetcher', 'machine'],
      ['fetchThing', 'service'],
    ]);
    expect(within(diagram).getByText('services')).toBeInTheDocument();

    // Arrows: the events sent to it, the call and its answer with the call's duration.
    expect(arrowsIn(diagram).map((arrow) => arrow.getAttribute('data-event'))).toEqual([
      'xstate.init',
      'fetcher.go',
      'invoke fetchThing',
      'xstate.done.actor.0.fetcher.fetching',
    ]);
    const call = arrowsIn(diagram, '[data-from="seq-fetcher"][data-to="fetchThing"][data-type="invoke"]');
    expect(call).toHaveLength(1);
    const answer = arrowsIn(diagram, '[data-from="fetchThing"][data-to="seq-fetcher"]')[0]!;
    expect(answer.querySelector('title')?.textContent).toMatch(/^fetchThing → seq-fetcher: xstate\.done\.actor\.0\.fetcher\.fetching at .*, answered after \d+ ms$/);
    expect(within(answer as HTMLElement).getByText(/^took \d+ ms$/)).toBeInTheDocument();
    expect(within(arrowsIn(diagram)[1] as HTMLElement).getByText(/^\+\d+ ms$/)).toBeInTheDocument();

    // Paused: new messages wait; resumed: they are drawn.
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    actor.send({ type: 'fetcher.go' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(arrowsIn(screen.getByRole('img', { name: 'Sequence of actors' }))).toHaveLength(4);
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(arrowsIn(screen.getByRole('img', { name: 'Sequence of actors' }))).toHaveLength(7));
    // The second call is drawn in the same service lane.
    expect(screen.getByRole('img', { name: 'Sequence of actors' }).querySelectorAll('[data-lane="fetchThing"]')).toHaveLength(1);

    // Back to the statechart from the keyboard (the choice is a radio group), and again with the mouse.
    screen.getByRole('radio', { name: 'Sequence' }).focus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('radio', { name: 'Statechart' })).toBeChecked();
    expect(screen.queryByRole('img', { name: 'Sequence of actors' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Sequence' }));
    expect(await screen.findByRole('img', { name: 'Sequence of actors' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Statechart' }));
    expect(screen.queryByRole('img', { name: 'Sequence of actors' })).not.toBeInTheDocument();
    actor.stop();
  });

  it('says so when there are no messages', () => {
    render(<SequenceDiagram layout={layoutSequence([])} />);
    expect(screen.getByText('No messages between actors yet.')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });
});
