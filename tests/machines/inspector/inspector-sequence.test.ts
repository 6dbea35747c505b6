import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, setup, waitFor } from 'xstate';
import { createInspectionHub, type InspectionHub } from '@/lib/inspection/hub';
import { buildInspectorLog, INSPECTOR_LOG_SCHEMA, parseInspectorLog } from '@/lib/inspection/log-file';
import type { StatechartLayout } from '@/lib/inspection/statechart-layout';
import { inspectorMachine } from '@/machines/inspector/inspector.machine';
import { selectMessages, selectMode, sequenceUntil } from '@/machines/inspector/inspector.selectors';

/** A machine that calls a service: the sequence view's messages (issue 22 item 3). */
const fetcher = setup({
  types: { events: {} as { type: 'fetcher.go' } },
  actors: { load: fromPromise(async () => 'loaded') },
}).createMachine({
  id: 'banner',
  initial: 'idle',
  states: {
    idle: { on: { 'fetcher.go': 'loading' } },
    loading: { invoke: { src: 'load', onDone: 'done' } },
    done: {},
  },
});

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function startInspector(hub: InspectionHub) {
  const machine = inspectorMachine.provide({
    actors: {
      layout: fromPromise<StatechartLayout, { machineId: string }>(async ({ input }) => ({
        machineId: input.machineId,
        width: 10,
        height: 10,
        nodes: [],
        edges: [],
      })),
    },
  });
  return createActor(machine, { input: { hub, preselectActorId: 'fetcher', local: false, readSavedLogs: () => null } }).start();
}

const arrows = (messages: readonly { fromId: string | null; toId: string; event: string }[]) =>
  messages.map((message) => `${message.fromId ?? 'outside'} -> ${message.toId}: ${message.event}`);

describe('inspector machine: messages for the sequence view', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('takes the hub’s messages live, keeps them while paused, and takes them again on resume', async () => {
    const hub = createInspectionHub();
    const inspector = startInspector(hub);
    const actor = createActor(fetcher, { id: 'fetcher', inspect: hub.inspect }).start();
    actor.send({ type: 'fetcher.go' });
    await flush();
    expect(arrows(selectMessages(inspector.getSnapshot()))).toEqual([
      'outside -> fetcher: xstate.init',
      'outside -> fetcher: fetcher.go',
      'fetcher -> load: invoke load',
      'load -> fetcher: xstate.done.actor.0.banner.loading',
    ]);
    expect(selectMessages(inspector.getSnapshot())).toBe(hub.messages());

    inspector.send({ type: 'inspector.pause' });
    const frozen = selectMessages(inspector.getSnapshot());
    const again = createActor(fetcher, { id: 'again', inspect: hub.inspect }).start();
    again.send({ type: 'fetcher.go' });
    await flush();
    expect(selectMessages(inspector.getSnapshot())).toBe(frozen);
    // Paused at the last record: the sequence ends at its time.
    const { records, cursor } = inspector.getSnapshot().context;
    expect(sequenceUntil(records, cursor)).toBe(records.at(-1)!.time);
    expect(sequenceUntil(records, null)).toBeNull();

    inspector.send({ type: 'inspector.resume' });
    expect(selectMessages(inspector.getSnapshot()).length).toBeGreaterThan(frozen.length);
  });

  it('exports the messages with the log and replays them from a loaded one; an older log without them loads too', async () => {
    const blobs: Blob[] = [];
    class DownloadUrl extends URL {
      static override createObjectURL(blob: Blob) {
        blobs.push(blob);
        return 'blob:log';
      }
      static override revokeObjectURL() {}
    }
    vi.stubGlobal('URL', DownloadUrl);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const hub = createInspectionHub();
    const inspector = startInspector(hub);
    createActor(fetcher, { id: 'fetcher', inspect: hub.inspect }).start().send({ type: 'fetcher.go' });
    await flush();
    inspector.send({ type: 'inspector.export' });
    click.mockRestore();
    const exported = parseInspectorLog(await blobs[0]!.text());
    expect(exported.messages).toEqual(hub.messages());

    const fresh = startInspector(createInspectionHub());
    fresh.send({ type: 'inspector.load', file: new File([JSON.stringify(exported)], 'with-messages.json') });
    await waitFor(fresh, (snapshot) => selectMode(snapshot) === 'replayStopped');
    expect(selectMessages(fresh.getSnapshot())).toEqual(hub.messages());

    const old = { ...buildInspectorLog(hub.records()), messages: undefined };
    expect(old.schema).toBe(INSPECTOR_LOG_SCHEMA);
    fresh.send({ type: 'inspector.load', file: new File([JSON.stringify(old)], 'old.json') });
    await waitFor(fresh, (snapshot) => selectMode(snapshot) === 'replayStopped' && snapshot.context.loadedName === 'old.json');
    expect(selectMessages(fresh.getSnapshot())).toEqual([]);
    // Replaying, the sequence ends where the view is.
    const { records, cursor } = fresh.getSnapshot().context;
    expect(cursor).not.toBeNull();
    expect(sequenceUntil(records, cursor)).toBe(records[cursor!]!.time);
  });
});
