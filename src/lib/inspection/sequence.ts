import type { InspectionMessage, MessageActorKind } from '@/lib/inspection/hub';

/**
 * The sequence view's layout (issue 22 item 3), pure: from the hub's messages, one lane per actor
 * and one arrow per message, top to bottom in time, each with how long after the one before it
 * came and, on a service's answer, how long the call took.
 */
export const SEQUENCE_GEOMETRY = {
  /** Left column of the timing texts ("+120 ms"). */
  gutter: 76,
  laneWidth: 170,
  /** Lane headers, with the "services" bracket above the service lanes. */
  headerHeight: 64,
  rowHeight: 40,
  /** How far a self-arrow reaches to the right of its lifeline. */
  selfWidth: 28,
  /** The lane names again under the lifelines: a long sequence is seen scrolled to its end. */
  footerHeight: 40,
} as const;

/** Arrows shown at most: the newest ones (up to the cursor). */
export const SEQUENCE_LIMIT = 80;

const OUTSIDE = 'outside';
// About 6.5 px a character at the arrows' 11 px font.
const CHAR_WIDTH = 6.5;

export interface SequenceLane {
  /** The actor's session id; "outside"; for a service, its caller's session id and its name. */
  key: string;
  kind: MessageActorKind;
  /** Its full name: the actor id of a machine, the `src` of a service; "outside" for the UI. */
  name: string;
  /** What the header shows (a job's uuid shortened). */
  label: string;
  /** A service's caller (the machine that invoked it). */
  owner: string | null;
  /** The lifeline's x. */
  x: number;
}

export interface SequenceArrow {
  seq: number;
  time: number;
  type: InspectionMessage['type'];
  event: string;
  /** The event shortened to fit between its lanes (the full one is `event`). */
  text: string;
  from: SequenceLane;
  to: SequenceLane;
  self: boolean;
  y: number;
  /** ms since the message before it (null for the first one kept). */
  gap: number | null;
  /** "+120 ms". */
  gapText: string;
  /** On a service's (or child machine's) answer: ms since it was started. */
  duration: number | null;
  durationText: string | null;
}

export interface SequenceLayout {
  lanes: SequenceLane[];
  arrows: SequenceArrow[];
  /** Where the service lanes start and end (x of the first and last lifeline), for the bracket. */
  services: { x1: number; x2: number } | null;
  width: number;
  height: number;
  /** Older messages not shown (before the window). */
  hidden: number;
}

export interface SequenceOptions {
  /** Only messages at or before this time (a paused or replayed view's position). */
  until?: number | null;
  /** Only the messages to or from this actor (session id). */
  focus?: string | null;
  /** Newest messages kept (SEQUENCE_LIMIT). */
  limit?: number;
}

const UUID = /([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** A job's `job-<uuid>` keeps the uuid's first 8 digits, as the event log shows it. */
export const shortName = (name: string): string => name.replace(UUID, '$1…');

/** "+120 ms", "+2.4 s", "+3 min": short enough for the timing column. */
export function formatGap(ms: number): string {
  return `+${formatDuration(ms)}`;
}

export function formatDuration(ms: number): string {
  const value = Math.max(0, Math.round(ms));
  if (value < 1000) return `${value} ms`;
  if (value < 60_000) return `${(value / 1000).toFixed(1)} s`;
  return `${Math.round(value / 60_000)} min`;
}

const fit = (text: string, width: number): string => {
  const chars = Math.max(8, Math.floor(width / CHAR_WIDTH));
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
};

/** A service's (or child machine's) answer to its caller: the return arrow of a call. */
const isAnswer = (message: InspectionMessage): boolean =>
  message.fromKind !== 'outside' && (message.event.startsWith('xstate.done.actor.') || message.event.startsWith('xstate.error.actor.'));

/** A child's start: a service's invoke, or the xstate.init a machine's parent sends it. */
const isStart = (message: InspectionMessage): boolean =>
  message.type === 'invoke' || (message.event === 'xstate.init' && message.fromKind !== 'outside');

export function layoutSequence(messages: readonly InspectionMessage[], options: SequenceOptions = {}): SequenceLayout {
  const { until = null, focus = null, limit = SEQUENCE_LIMIT } = options;
  let end = messages.length;
  if (until !== null) {
    while (end > 0 && messages[end - 1]!.time > until) end -= 1;
  }
  const upTo = messages.slice(0, end);
  const relevant = focus === null ? upTo : upTo.filter((message) => message.fromSessionId === focus || message.toSessionId === focus);
  const kept = relevant.slice(Math.max(0, relevant.length - limit));

  // Each call of a service is an actor of its own: the calls one machine makes to one service
  // share a lane (a job's polls one under another, not a new lane per poll).
  const callers = new Map<string, { sessionId: string; name: string }>();
  for (const message of upTo) {
    if (message.type === 'invoke' && message.fromSessionId !== null && message.fromId !== null) {
      callers.set(message.toSessionId, { sessionId: message.fromSessionId, name: message.fromId });
    }
  }
  const laneKey = (sessionId: string | null, kind: MessageActorKind, name: string): string => {
    if (sessionId === null) return OUTSIDE;
    const caller = kind === 'service' ? callers.get(sessionId) : undefined;
    return caller ? `${caller.sessionId}>${name}` : sessionId;
  };
  const keyOfFrom = (message: InspectionMessage) => laneKey(message.fromSessionId, message.fromKind, message.fromId ?? OUTSIDE);
  const keyOfTo = (message: InspectionMessage) => laneKey(message.toSessionId, message.toKind, message.toId);

  // Lanes in order of first appearance; the outside first, the services after the machines.
  const seen = new Map<string, Omit<SequenceLane, 'x'>>();
  const see = (key: string, sessionId: string | null, kind: MessageActorKind, name: string) => {
    if (seen.has(key)) return;
    const owner = sessionId === null ? null : (callers.get(sessionId)?.name ?? null);
    seen.set(key, { key, kind, name, label: shortName(name), owner: kind === 'service' ? owner : null });
  };
  for (const message of kept) {
    see(keyOfFrom(message), message.fromSessionId, message.fromKind, message.fromId ?? OUTSIDE);
    see(keyOfTo(message), message.toSessionId, message.toKind, message.toId);
  }
  const rank: Record<MessageActorKind, number> = { outside: 0, machine: 1, service: 2 };
  const { gutter, laneWidth, headerHeight, rowHeight, footerHeight } = SEQUENCE_GEOMETRY;
  const lanes: SequenceLane[] = [...seen.values()]
    .map((lane, order) => ({ lane, order }))
    .sort((a, b) => rank[a.lane.kind] - rank[b.lane.kind] || a.order - b.order)
    .map(({ lane }, index) => ({ ...lane, x: gutter + laneWidth * index + laneWidth / 2 }));
  const byKey = new Map(lanes.map((lane) => [lane.key, lane]));

  // When each child was started, to time its answer (looked up in all messages, not only those shown).
  const started = new Map<string, number>();
  const durations = new Map<number, number>();
  for (const message of upTo) {
    if (isStart(message)) started.set(message.toSessionId, message.time);
    else if (isAnswer(message)) {
      const start = started.get(message.fromSessionId ?? '');
      if (start !== undefined) durations.set(message.seq, message.time - start);
    }
  }

  const first = relevant.length - kept.length;
  const arrows: SequenceArrow[] = kept.map((message, index) => {
    const from = byKey.get(keyOfFrom(message))!;
    const to = byKey.get(keyOfTo(message))!;
    const self = from.key === to.key;
    const previous = relevant[first + index - 1];
    const gap = previous ? message.time - previous.time : null;
    const duration = durations.get(message.seq) ?? null;
    const span = self ? laneWidth - SEQUENCE_GEOMETRY.selfWidth - 8 : Math.abs(to.x - from.x) - 12;
    return {
      seq: message.seq,
      time: message.time,
      type: message.type,
      event: message.event,
      text: fit(message.event, span),
      from,
      to,
      self,
      y: headerHeight + rowHeight * index + rowHeight * 0.6,
      gap,
      gapText: gap === null ? '' : formatGap(gap),
      duration,
      durationText: duration === null ? null : formatDuration(duration),
    };
  });

  const serviceLanes = lanes.filter((lane) => lane.kind === 'service');
  return {
    lanes,
    arrows,
    services: serviceLanes.length > 0 ? { x1: serviceLanes[0]!.x, x2: serviceLanes[serviceLanes.length - 1]!.x } : null,
    width: gutter + laneWidth * Math.max(1, lanes.length),
    height: headerHeight + rowHeight * arrows.length + footerHeight,
    hidden: first,
  };
}
