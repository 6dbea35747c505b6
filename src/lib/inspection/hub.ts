import type { AnyActorRef, InspectionEvent } from 'xstate';
import { toJsonSafe, type JsonValue } from '@/lib/inspection/json-safe';

/**
 * The inspection hub: XState's `inspect` option of every root actor feeds it (app.tsx, the
 * screen-local actors), and the QA inspector reads it. It keeps a bounded log of records, a
 * table of the machine actors alive now, and a bounded log of the messages between actors (for
 * the sequence view). No React, tiny: it is in the initial bundle.
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

/**
 * One arrow of the sequence view (issue 22 item 3): an event from one actor to another, or the
 * start of a service (type 'invoke'). Kinds: a machine, a service (a fromPromise/fromCallback/…
 * actor) or the outside (sent with no source actor: React, the UI).
 */
export type MessageActorKind = 'machine' | 'service' | 'outside';

export interface InspectionMessage {
  seq: number;
  /** ms since the epoch. */
  time: number;
  type: 'event' | 'invoke';
  /** A machine's actor id, a service's `src` name (its id when inline); null from the outside. */
  fromId: string | null;
  fromSessionId: string | null;
  fromKind: MessageActorKind;
  toId: string;
  toSessionId: string;
  toKind: Exclude<MessageActorKind, 'outside'>;
  /** The event's type, or `invoke <src>` for the start of a service. */
  event: string;
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

/** A lane's name: a machine's actor id; a service's implementation name (`src`), unless inline. */
const nameOf = (ref: AnyActorRef, machine: boolean): string => {
  const src = (ref as { src?: unknown }).src;
  if (machine || typeof src !== 'string' || src.startsWith('xstate.invoke.')) return ref.id;
  return src;
};

export interface InspectionHub {
  inspect: (event: InspectionEvent) => void;
  /** The kept records, oldest first (the same array until something changes). */
  records: () => readonly InspectionRecord[];
  liveActors: () => readonly LiveActor[];
  /** The kept messages between actors, oldest first (the same array until one arrives). */
  messages: () => readonly InspectionMessage[];
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
  const messageLog: InspectionMessage[] = [];
  let messagesView: readonly InspectionMessage[] = [];
  // Apart from `dirty`: a message alone must not hand the views of records a new array.
  let messagesDirty = false;
  let messageSeq = 0;
  const live = new Map<string, LiveActor>();
  const lastValue = new Map<string, JsonValue>();
  const listeners = new Set<Listener>();
  let notifyQueued = false;

  const notify = (records = true) => {
    if (records) dirty = true;
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

  const pushMessage = (message: Omit<InspectionMessage, 'seq' | 'time'>) => {
    messageSeq += 1;
    messageLog.push({ seq: messageSeq, time: now(), ...message });
    // In place: messages come often, and a full log would otherwise be copied on each one.
    if (messageLog.length > capacity) messageLog.splice(0, messageLog.length - capacity);
    messagesDirty = true;
  };

  /** Events between actors, from the outside to a machine, and the start of each child service. */
  const recordMessage = (event: InspectionEvent & { type: '@xstate.event' }, toMachine: boolean): boolean => {
    const target = event.actorRef as AnyActorRef;
    const source = event.sourceRef as AnyActorRef | undefined;
    // A service's own sends to itself (a promise's xstate.promise.resolve) are its insides, not messages.
    if (!toMachine && (!source || source === target)) return false;
    const fromMachine = source !== undefined && machineIdOf(source) !== null;
    const toId = nameOf(target, toMachine);
    // A child's start is the xstate.init its parent sends: for a service, that is the call. (Its
    // `@xstate.actor` comes at creation, also for one that is never started.)
    const invoke = !toMachine && source !== undefined && event.event.type === 'xstate.init';
    pushMessage({
      type: invoke ? 'invoke' : 'event',
      fromId: source ? nameOf(source, fromMachine) : null,
      fromSessionId: source?.sessionId ?? null,
      fromKind: source ? (fromMachine ? 'machine' : 'service') : 'outside',
      toId,
      toSessionId: target.sessionId,
      toKind: toMachine ? 'machine' : 'service',
      event: invoke ? `invoke ${toId}` : event.event.type,
    });
    return true;
  };

  const inspect = (event: InspectionEvent) => {
    const ref = event.actorRef as AnyActorRef;
    const machineId = machineIdOf(ref);
    const messaged = event.type === '@xstate.event' && recordMessage(event, machineId !== null);
    if (machineId === null) {
      if (messaged) notify(false);
      return;
    }
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
    messages: () => {
      if (messagesDirty) {
        messagesDirty = false;
        messagesView = messageLog.slice();
      }
      return messagesView;
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
