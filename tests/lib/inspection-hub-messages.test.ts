import { createActor, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createInspectionHub, type InspectionMessage } from '@/lib/inspection/hub';

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A parent that calls a promise service, listens to a callback and talks to a child machine. */
const child = setup({ types: { events: {} as { type: 'child.ping' } } }).createMachine({
  id: 'child',
  initial: 'idle',
  states: { idle: { on: { 'child.ping': 'pinged' } }, pinged: { type: 'final' } },
});

const parent = setup({
  types: { events: {} as { type: 'parent.go' } | { type: 'parent.heard' } | { type: 'parent.ping' } },
  actors: {
    fetchThing: fromPromise(async () => 'thing'),
    listen: fromCallback(({ sendBack }) => {
      sendBack({ type: 'parent.heard' });
      return () => undefined;
    }),
    child,
  },
}).createMachine({
  id: 'parent',
  initial: 'idle',
  invoke: [{ src: 'listen' }, { id: 'kid', src: 'child' }],
  states: {
    idle: { on: { 'parent.go': 'fetching', 'parent.ping': { actions: sendTo('kid', { type: 'child.ping' }) } } },
    fetching: { invoke: { src: 'fetchThing', onDone: 'done' } },
    done: {},
  },
});

const arrow = (message: InspectionMessage) => `${message.fromId ?? 'outside'} -> ${message.toId}: ${message.event}`;

describe('inspection hub messages', () => {
  it('records events between actors, from the outside, and each service call with its answer', async () => {
    let clock = 1000;
    const hub = createInspectionHub({ now: () => clock++ });
    const actor = createActor(parent, { id: 'boss', inspect: hub.inspect }).start();
    actor.send({ type: 'parent.ping' });
    actor.send({ type: 'parent.go' });
    await flush();

    const messages = hub.messages();
    expect(messages.map(arrow)).toEqual([
      'outside -> boss: xstate.init',
      'boss -> listen: invoke listen',
      'listen -> boss: parent.heard',
      'boss -> kid: xstate.init',
      'outside -> boss: parent.ping',
      'boss -> kid: child.ping',
      'kid -> boss: xstate.done.actor.kid',
      'outside -> boss: parent.go',
      'boss -> fetchThing: invoke fetchThing',
      'fetchThing -> boss: xstate.done.actor.0.parent.fetching',
    ]);
    expect(messages.map((message) => message.seq)).toEqual(messages.map((_, index) => index + 1));
    const call = messages.find((message) => message.type === 'invoke' && message.toId === 'fetchThing')!;
    expect(call).toMatchObject({ fromKind: 'machine', fromSessionId: actor.sessionId, toKind: 'service' });
    const answer = messages.at(-1)!;
    expect(answer).toMatchObject({ type: 'event', fromKind: 'service', fromSessionId: call.toSessionId, toKind: 'machine' });
    expect(messages[0]).toMatchObject({ fromKind: 'outside', fromId: null, fromSessionId: null, toKind: 'machine', toId: 'boss' });
  });

  it('records a failed call’s error answer from the service to its caller', async () => {
    const failing = setup({ actors: { fail: fromPromise<string>(async () => Promise.reject(new Error('no'))) } }).createMachine({
      id: 'caller',
      initial: 'calling',
      states: { calling: { invoke: { src: 'fail', onError: 'failed' } }, failed: {} },
    });
    const hub = createInspectionHub();
    createActor(failing, { id: 'caller', inspect: hub.inspect }).start();
    await flush();
    expect(hub.messages().map(arrow).slice(1)).toEqual(['caller -> fail: invoke fail', 'fail -> caller: xstate.error.actor.0.caller.calling']);
  });

  it('keeps records as they were: services stay out of them, and a message alone keeps the same records array', async () => {
    const hub = createInspectionHub();
    const actor = createActor(parent, { inspect: hub.inspect }).start();
    actor.send({ type: 'parent.go' });
    await flush();
    expect(new Set(hub.records().map((record) => record.machineId))).toEqual(new Set(['parent', 'child']));
    const records = hub.records();
    const messages = hub.messages();
    expect(hub.messages()).toBe(messages);
    expect(hub.records()).toBe(records);
    expect(messages.length).toBeGreaterThan(0);
  });

  it('keeps at most `capacity` messages, dropping the oldest, and tells subscribers of a service-only message', async () => {
    const hub = createInspectionHub({ capacity: 3 });
    const actor = createActor(parent, { inspect: hub.inspect }).start();
    for (let i = 0; i < 5; i += 1) actor.send({ type: 'parent.ping' });
    const messages = hub.messages();
    expect(messages).toHaveLength(3);
    expect(messages.at(-1)!.seq).toBe(messages[0]!.seq + 2);

    let calls = 0;
    hub.subscribe(() => {
      calls += 1;
    });
    const ticker = fromCallback<{ type: 'tick' }>(({ receive }) => {
      receive(() => undefined);
    });
    const root = setup({ actors: { ticker } }).createMachine({
      id: 'root',
      invoke: { id: 'ticker', src: 'ticker' },
      entry: sendTo('ticker', { type: 'tick' }),
    });
    createActor(root, { id: 'root', inspect: hub.inspect }).start();
    await flush();
    expect(calls).toBe(1);
    expect(hub.messages().map(arrow).at(-1)).toBe('root -> ticker: tick');
  });
});
