import { assign, createActor, fromCallback, fromPromise, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createInspectionHub } from '@/lib/inspection/hub';
import { JSON_SAFE_LIMITS, REDACTED, toJsonSafe } from '@/lib/inspection/json-safe';

const toggle = setup({
  types: { context: {} as { count: number; file?: File }, events: {} as { type: 'toggle.flip' } | { type: 'toggle.finish' } },
}).createMachine({
  id: 'toggle',
  context: { count: 0 },
  initial: 'off',
  states: {
    off: { on: { 'toggle.flip': { target: 'on', actions: assign({ count: ({ context }) => context.count + 1 }) } } },
    on: { on: { 'toggle.flip': 'off', 'toggle.finish': 'finished' } },
    finished: { type: 'final' },
  },
});

const flush = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('inspection hub', () => {
  it('records actors, events and snapshots with from → to and a live-actor table', async () => {
    const hub = createInspectionHub({ now: () => 1000 });
    const actor = createActor(toggle, { id: 'lamp', inspect: hub.inspect }).start();
    actor.send({ type: 'toggle.flip' });

    const records = hub.records();
    expect(records.map((record) => record.type)).toEqual(['actor', 'event', 'snapshot', 'event', 'snapshot']);
    const flip = records[4]!;
    expect(flip).toMatchObject({
      actorId: 'lamp',
      machineId: 'toggle',
      type: 'snapshot',
      event: 'toggle.flip',
      from: 'off',
      to: 'on',
      snapshotValue: 'on',
      status: 'active',
      context: { count: 1 },
      time: 1000,
    });
    expect(records.map((record) => record.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(hub.liveActors()).toEqual([expect.objectContaining({ actorId: 'lamp', machineId: 'toggle', value: 'on', status: 'active' })]);

    actor.send({ type: 'toggle.finish' });
    expect(hub.records().at(-1)).toMatchObject({ to: 'finished', status: 'done' });
    expect(hub.liveActors()).toEqual([]);
  });

  it('drops a stopped actor from the live table and tells subscribers once per batch', async () => {
    const hub = createInspectionHub();
    let calls = 0;
    const unsubscribe = hub.subscribe(() => {
      calls += 1;
    });
    const actor = createActor(toggle, { inspect: hub.inspect }).start();
    actor.send({ type: 'toggle.flip' });
    actor.send({ type: 'toggle.flip' });
    await flush();
    expect(calls).toBe(1);
    expect(hub.liveActors()).toHaveLength(1);
    actor.stop();
    await flush();
    expect(hub.liveActors()).toHaveLength(0);
    expect(calls).toBe(2);
    unsubscribe();
    createActor(toggle, { inspect: hub.inspect }).start();
    await flush();
    expect(calls).toBe(2);
  });

  it('keeps at most `capacity` records, dropping the oldest', () => {
    const hub = createInspectionHub({ capacity: 10 });
    const actor = createActor(toggle, { inspect: hub.inspect }).start();
    for (let i = 0; i < 20; i += 1) actor.send({ type: 'toggle.flip' });
    const records = hub.records();
    expect(records).toHaveLength(10);
    // 1 actor + 1 init event + 1 init snapshot + 20 × (event + snapshot) = 43 records in all.
    expect(records.at(-1)!.seq).toBe(43);
    expect(records[0]!.seq).toBe(34);
    expect(hub.dropped()).toBe(33);
  });

  it('lists an actor as live only once it has started', () => {
    const hub = createInspectionHub();
    const actor = createActor(toggle, { inspect: hub.inspect });
    expect(hub.records().map((record) => record.type)).toEqual(['actor']);
    expect(hub.liveActors()).toEqual([]);
    actor.start();
    expect(hub.liveActors()).toHaveLength(1);
  });

  it('ignores actors that are not machines (promises, callbacks)', () => {
    const hub = createInspectionHub();
    const parent = setup({
      actors: { child: fromPromise(async () => 'done'), listener: fromCallback(() => () => undefined) },
    }).createMachine({
      id: 'parent',
      invoke: [{ src: 'child' }, { src: 'listener' }],
    });
    createActor(parent, { inspect: hub.inspect }).start();
    expect(new Set(hub.records().map((record) => record.machineId))).toEqual(new Set(['parent']));
    expect(hub.liveActors().map((actor) => actor.machineId)).toEqual(['parent']);
  });

  it('makes contexts JSON-safe: refs, files, cycles, depth and length limits', () => {
    const hub = createInspectionHub();
    const child = createActor(toggle, { id: 'child-lamp' });
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 10; i += 1) deep = { deeper: deep };
    const holder = setup({ types: { context: {} as Record<string, unknown> } }).createMachine({
      id: 'holder',
      context: {
        ref: child,
        file: new File(['12345'], 'photo.png', { type: 'image/png' }),
        cyclic,
        deep,
        long: 'x'.repeat(2000),
        many: Array.from({ length: 80 }, (_, index) => index),
        when: new Date('2026-01-02T03:04:05Z'),
        fn: function namedFunction() {},
        nan: Number.NaN,
        missing: undefined,
      },
    });
    createActor(holder, { inspect: hub.inspect }).start();
    const context = hub.records().find((record) => record.type === 'snapshot')!.context as Record<string, unknown>;
    expect(() => JSON.stringify(context)).not.toThrow();
    expect(JSON.parse(JSON.stringify(context))).toEqual(context);
    expect(context.ref).toEqual({ ref: 'child-lamp' });
    expect(context.file).toEqual({ file: 'photo.png', size: 5, type: 'image/png' });
    expect(context.cyclic).toEqual({ name: 'loop', self: '[circular]' });
    expect((context.long as string).length).toBe(JSON_SAFE_LIMITS.stringLength + 1);
    expect(context.many).toHaveLength(JSON_SAFE_LIMITS.arrayLength + 1);
    expect(context.when).toBe('2026-01-02T03:04:05.000Z');
    expect(context.fn).toBe('[function namedFunction]');
    expect(context.nan).toBe('NaN');
    expect(context.missing).toBeNull();
    expect(JSON.stringify(context.deep)).toContain('…');
    expect(JSON.stringify(context.deep)).not.toContain('leaf');
  });

  it('shares a value seen twice (not a cycle) in full', () => {
    const shared = { a: 1 };
    expect(toJsonSafe({ left: shared, right: shared })).toEqual({ left: { a: 1 }, right: { a: 1 } });
  });
});

describe('secrets in recorded contexts', () => {
  it('redacts passwords, tokens, codes and keys at any depth, keeping everything else', () => {
    const safe = toJsonSafe({
      email: 'ana@example.test',
      password: 'hunter22',
      pending: { newPassword: 'x', accessToken: 'eyJ', code: '123456', codeSentAt: 5 },
      guestPassword: 'kinora-guest',
      apiKey: 'k',
    });
    expect(safe).toEqual({
      email: 'ana@example.test',
      password: REDACTED,
      pending: { newPassword: REDACTED, accessToken: REDACTED, code: REDACTED, codeSentAt: 5 },
      guestPassword: REDACTED,
      apiKey: REDACTED,
    });
    expect(JSON.stringify(safe)).not.toMatch(/hunter22|eyJ|123456|kinora-guest/);
  });
});
