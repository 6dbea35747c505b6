import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { parsePayload } from '@/lib/inspection/send-event';
import type { InspectorContext, SendOutcome } from '@/machines/inspector/inspector.types';

/**
 * Send an event to a live actor (issue 22 item 2): what came of sending the chosen event to the
 * chosen actor. Sent only to a live actor whose current state takes it with this payload
 * (snapshot.can runs its guards), so the inspector never pushes an actor down a path it would refuse.
 */
export function sendToActor(context: InspectorContext): SendOutcome {
  const type = context.sendType;
  if (!type) return { kind: 'refused', message: INSPECTOR_TEXTS.send.chooseFirst };
  const actor = context.hub.liveActors().find((candidate) => candidate.sessionId === context.selectedSessionId);
  if (!actor) return { kind: 'refused', message: INSPECTOR_TEXTS.send.notLive };
  const payload = parsePayload(context.sendPayload);
  if (!payload.ok) return { kind: 'refused', message: payload.error };
  const event = { ...payload.payload, type };
  let accepted: boolean;
  try {
    accepted = actor.ref.getSnapshot().can(event);
  } catch (error) {
    // A guard that reads a field the payload lacks throws instead of answering.
    return { kind: 'refused', message: INSPECTOR_TEXTS.send.guardFailed(type, error instanceof Error ? error.message : String(error)) };
  }
  if (!accepted) return { kind: 'refused', message: INSPECTOR_TEXTS.send.notAccepted(type) };
  actor.ref.send(event);
  return { kind: 'sent', message: INSPECTOR_TEXTS.send.sent(type) };
}
