import type { AnyActorRef, InspectionEvent } from 'xstate';
import { toJsonSafe, type JsonValue } from '@/lib/inspection/json-safe';

/**
 * The inspection hub: XState's `inspect` option of every root actor feeds it (app.tsx, the
 * screen-local actors), and the QA inspector reads it. It keeps a bounded log of records and a
 * table of the machine actors alive now. No React, tiny: it is in the initial bundle.
 */
export type InspectionRecordType = 'actor' | 'event' | 'snapshot';

export interface InspectionRecord {
  seq: number;
  /** ms since the epoch. */
  time: number;
  /** The actor's id (a job's local id, "session", …). */
  actorId: string;
  /** Unique per actor in this page ("x:12"). */
  sessionId: string;
  /** The machine's id (`machine.id`), the key of the machine catalog. */
  machineId: string;
  type: InspectionRecordType;
  /** The event's type (event and snapshot records). */
  event?: string;
  /** The state value before and after (snapshot records). */
  from?: JsonValue;
  to?: JsonValue;
  snapshotValue?: JsonValue;
  /** active, done, error or stopped (snapshot records). */
  status?: string;
  context?: JsonValue;
}

export interface LiveActor {
  actorId: string;
  sessionId: string;
  machineId: string;
  status: string;
  value: JsonValue;
  ref: AnyActorRef;
}

export const INSPECTION_CAPACITY = 5000;

type Listener = () => void;

interface MachineLogic {
  id: string;
  root: unknown;
}

const machineIdOf = (ref: AnyActorRef): string | null => {
  const logic = (ref as { logic?: Partial<MachineLogic> }).logic;
  return logic && typeof logic.id === 'string' && logic.root ? logic.id : null;
};

export interface InspectionHub {
  inspect: (event: InspectionEvent) => void;
  /** The kept records, oldest first (the same array until something changes). */
  records: () => readonly InspectionRecord[];
  liveActors: () => readonly LiveActor[];
  subscribe: (listener: Listener) => () => void;
  /** How many records were dropped because the log was full. */
  dropped: () => number;
}

export function createInspectionHub({ capacity = INSPECTION_CAPACITY, now = Date.now } = {}): InspectionHub {
  let log: InspectionRecord[] = [];
  let recordsView: readonly InspectionRecord[] = [];
  let liveView: readonly LiveActor[] = [];
  let dirty = false;
  let droppedCount = 0;
  let seq = 0;
  const live = new Map<string, LiveActor>();
  const lastValue = new Map<string, JsonValue>();
  const listeners = new Set<Listener>();
  let notifyQueued = false;

  const notify = () => {
    dirty = true;
    if (notifyQueued) return;
    notifyQueued = true;
    // Records arrive in the middle of other actors' transitions: tell listeners afterwards, once.
    queueMicrotask(() => {
      notifyQueued = false;
      for (const listener of [...listeners]) listener();
    });
  };

  const refresh = () => {
    if (!dirty) return;
    dirty = false;
    recordsView = log.slice();
    liveView = [...live.values()];
  };

  const push = (record: Omit<InspectionRecord, 'seq' | 'time'>) => {
    seq += 1;
    log.push({ seq, time: now(), ...record });
    if (log.length > capacity) {
      droppedCount += log.length - capacity;
      log = log.slice(log.length - capacity);
    }
  };

  const inspect = (event: InspectionEvent) => {
    const ref = event.actorRef as AnyActorRef;
    const machineId = machineIdOf(ref);
    if (machineId === null) return;
    const base = { actorId: ref.id, sessionId: ref.sessionId, machineId };
    if (event.type === '@xstate.actor') {
      // Listed as live from its first snapshot (start): React's strict mode creates actors it never starts.
      push({ ...base, type: 'actor' });
      notify();
      return;
    }
    if (event.type === '@xstate.event') {
      push({ ...base, type: 'event', event: event.event.type });
      notify();
      return;
    }
    if (event.type === '@xstate.snapshot') {
      const snapshot = event.snapshot as { value?: unknown; status?: string; context?: unknown };
      const value = toJsonSafe(snapshot.value);
      const status = snapshot.status ?? 'active';
      const from = lastValue.get(ref.sessionId) ?? null;
      push({
        ...base,
        type: 'snapshot',
        event: event.event.type,
        from,
        to: value,
        snapshotValue: value,
        status,
        context: toJsonSafe(snapshot.context),
      });
      if (status === 'active') {
        lastValue.set(ref.sessionId, value);
        const entry = live.get(ref.sessionId);
        live.set(ref.sessionId, { ...(entry ?? { ...base, ref }), status, value });
      } else {
        lastValue.delete(ref.sessionId);
        live.delete(ref.sessionId);
      }
      notify();
    }
  };

  return {
    inspect,
    records: () => {
      refresh();
      return recordsView;
    },
    liveActors: () => {
      refresh();
      return liveView;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dropped: () => droppedCount,
  };
}

/** The app's one hub. */
export const inspectionHub = createInspectionHub();

/** Pass as `options.inspect` to every root actor. */
export const inspect = inspectionHub.inspect;
