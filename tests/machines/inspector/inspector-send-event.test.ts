import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup, waitFor } from 'xstate';
import { createInspectionHub } from '@/lib/inspection/hub';
import { candidateEvents, parsePayload } from '@/lib/inspection/send-event';
import type { StatechartLayout } from '@/lib/inspection/statechart-layout';
import { inspectorMachine } from '@/machines/inspector/inspector.machine';
import { selectSendOutcome } from '@/machines/inspector/inspector.selectors';

/** Issue 22 item 2: events sent from the inspector reach a live actor only when its state takes them. */

const dimmer = setup({
  types: {
    context: {} as { level: number },
    events: {} as { type: 'dim.set'; level: number } | { type: 'dim.off' } | { type: 'dim.on' },
  },
}).createMachine({
  id: 'banner',
  context: { level: 0 },
  initial: 'off',
  states: {
    off: { on: { 'dim.on': 'on' } },
    on: {
      on: {
        'dim.off': 'off',
        'dim.set': {
          guard: ({ event }) => event.level >= 0 && event.level <= 100,
          actions: assign({ level: ({ event }) => event.level }),
        },
      },
    },
  },
});

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function start() {
  const hub = createInspectionHub();
  const machine = inspectorMachine.provide({
    actors: {
      layout: fromPromise<StatechartLayout, { machineId: string }>(async ({ input }) => ({ machineId: input.machineId, width: 10, height: 10, nodes: [], edges: [] })),
    },
  });
  const inspector = createActor(machine, { input: { hub, preselectActorId: 'dimmer' } }).start();
  const lamp = createActor(dimmer, { id: 'dimmer', inspect: hub.inspect }).start();
  return { inspector, lamp };
}

describe('sending an event from the inspector', () => {
  it('sends an event the current state takes, with its payload, and the actor moves', async () => {
    const { inspector, lamp } = start();
    await flush();
    inspector.send({ type: 'inspector.chooseEvent', eventType: 'dim.on' });
    inspector.send({ type: 'inspector.sendEvent' });
    expect(selectSendOutcome(inspector.getSnapshot())).toEqual({ kind: 'sent', message: 'Sent dim.on.' });
    expect(lamp.getSnapshot().value).toBe('on');

    inspector.send({ type: 'inspector.chooseEvent', eventType: 'dim.set' });
    inspector.send({ type: 'inspector.editPayload', text: '{"level": 40}' });
    expect(selectSendOutcome(inspector.getSnapshot())).toBeNull();
    inspector.send({ type: 'inspector.sendEvent' });
    expect(selectSendOutcome(inspector.getSnapshot())?.kind).toBe('sent');
    expect(lamp.getSnapshot().context.level).toBe(40);
    lamp.stop();
  });

  it('refuses what the state does not take, a guard that says no, bad JSON, and a stopped actor, saying why', async () => {
    const { inspector, lamp } = start();
    await flush();
    const outcome = () => selectSendOutcome(inspector.getSnapshot());
    inspector.send({ type: 'inspector.sendEvent' });
    expect(outcome()).toEqual({ kind: 'refused', message: 'Pick an event first.' });

    inspector.send({ type: 'inspector.chooseEvent', eventType: 'dim.off' });
    inspector.send({ type: 'inspector.sendEvent' });
    expect(outcome()?.message).toBe('Refused: its current state does not take dim.off now (no transition, or a guard says no with this payload).');

    lamp.send({ type: 'dim.on' });
    inspector.send({ type: 'inspector.chooseEvent', eventType: 'dim.set' });
    inspector.send({ type: 'inspector.editPayload', text: '{"level": 400}' });
    inspector.send({ type: 'inspector.sendEvent' });
    expect(outcome()?.kind).toBe('refused');
    expect(lamp.getSnapshot().context.level).toBe(0);

    inspector.send({ type: 'inspector.editPayload', text: '{level: 4' });
    inspector.send({ type: 'inspector.sendEvent' });
    expect(outcome()?.message).toMatch(/^The payload is not JSON: /);

    lamp.stop();
    await flush();
    inspector.send({ type: 'inspector.editPayload', text: '{"level": 4}' });
    inspector.send({ type: 'inspector.sendEvent' });
    expect(outcome()).toEqual({ kind: 'refused', message: 'This actor has stopped: only a live actor takes events.' });
  });

  it('sends nothing while paused: the view is not what the actor is in now', async () => {
    const { inspector, lamp } = start();
    await flush();
    inspector.send({ type: 'inspector.pause' });
    inspector.send({ type: 'inspector.chooseEvent', eventType: 'dim.on' });
    inspector.send({ type: 'inspector.sendEvent' });
    expect(lamp.getSnapshot().value).toBe('off');
    await waitFor(inspector, (snapshot) => snapshot.matches({ view: { live: 'paused' } }));
    lamp.stop();
  });
});

describe('the events a state names', () => {
  const layout = {
    machineId: 'm',
    width: 1,
    height: 1,
    nodes: [
      { id: 'm', path: '', parentId: null },
      { id: 'm.off', path: 'off', parentId: 'm' },
      { id: 'm.on', path: 'on', parentId: 'm' },
    ],
    edges: [
      { id: '1', source: 'm.off', kind: 'event', trigger: 'dim.on' },
      { id: '2', source: 'm.on', kind: 'event', trigger: 'dim.off' },
      { id: '3', source: 'm', kind: 'event', trigger: 'app.reset' },
      { id: '4', source: 'm.off', kind: 'after', trigger: 'after 3000' },
      { id: '5', source: 'm.off', kind: 'event', trigger: 'dim.*' },
      { id: '6', source: 'm.off', kind: 'event', trigger: 'dim.on' },
    ],
  } as unknown as StatechartLayout;

  it('are those leaving the root and the active states, once each, without timers or wildcards', () => {
    expect(candidateEvents(layout, new Set(['off']))).toEqual(['app.reset', 'dim.on']);
    expect(candidateEvents(layout, new Set(['on']))).toEqual(['app.reset', 'dim.off']);
  });

  it('take a JSON object payload without a type', () => {
    expect(parsePayload('  ')).toEqual({ ok: true, payload: {} });
    expect(parsePayload('{"level": 3}')).toEqual({ ok: true, payload: { level: 3 } });
    expect(parsePayload('[1]')).toMatchObject({ ok: false });
    expect(parsePayload('{"type": "x"}')).toMatchObject({ ok: false, error: expect.stringContaining('Leave "type" out') });
  });
});
