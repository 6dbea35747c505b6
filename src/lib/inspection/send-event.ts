import type { StatechartLayout } from '@/lib/inspection/statechart-layout';

/**
 * Sending an event from the inspector (issue 22 item 2): which events the chosen actor's current
 * states name on the chart, and the payload a QA person typed, checked before anything is sent.
 */

/**
 * The event types of the transitions leaving the machine's root or any of its active states
 * (`active`: dotted paths, as activePaths answers), each once, sorted. Timers, done/error and
 * always transitions are not events a person can send.
 */
export function candidateEvents(layout: StatechartLayout, active: ReadonlySet<string>): string[] {
  const live = new Set(layout.nodes.filter((node) => node.parentId === null || active.has(node.path)).map((node) => node.id));
  // A wildcard (`*`, `job.*`) names no one event to send.
  const types = layout.edges.filter((edge) => edge.kind === 'event' && live.has(edge.source) && !edge.trigger.includes('*')).map((edge) => edge.trigger);
  return [...new Set(types)].sort();
}

export type PayloadCheck = { ok: true; payload: Record<string, unknown> } | { ok: false; error: string };

/**
 * The event's fields beside its type, as a JSON object; empty text is no fields. A `type` field is
 * refused: the event's type is the one chosen.
 */
export function parsePayload(text: string): PayloadCheck {
  if (text.trim() === '') return { ok: true, payload: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `The payload is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'The payload must be a JSON object of the event’s fields, e.g. {"message": "Hi"}.' };
  }
  if ('type' in value) return { ok: false, error: 'Leave "type" out of the payload: the event’s type is the one chosen above.' };
  return { ok: true, payload: value as Record<string, unknown> };
}
