import { Alert, Button, Group, NativeSelect, Stack, Text, Textarea, Title } from '@mantine/core';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import type { SendOutcome } from '@/machines/inspector/inspector.machine';

interface SendEventPanelProps {
  /** The events the actor's current states name (candidateEvents). */
  events: readonly string[];
  /** False while paused, in a replay, or for an actor that has stopped. */
  enabled: boolean;
  eventType: string | null;
  payload: string;
  outcome: SendOutcome | null;
  onChoose(eventType: string): void;
  onPayload(text: string): void;
  onSend(): void;
}

/** Send an event to the chosen live actor (issue 22 item 2); the inspector machine checks and sends it. */
export function SendEventPanel({ events, enabled, eventType, payload, outcome, onChoose, onPayload, onSend }: SendEventPanelProps) {
  const texts = INSPECTOR_TEXTS.send;
  return (
    <Stack gap="xs" component="section" aria-label={texts.title}>
      <Title order={2} size="h4">
        {texts.title}
      </Title>
      {!enabled ? (
        <Text size="sm" c="dimmed">
          {texts.onlyLive}
        </Text>
      ) : events.length === 0 ? (
        <Text size="sm" c="dimmed">
          {texts.noEvents}
        </Text>
      ) : (
        <>
          <NativeSelect
            label={texts.event}
            value={eventType ?? ''}
            onChange={(event) => onChoose(event.currentTarget.value)}
            data={[{ value: '', label: texts.eventPlaceholder, disabled: true }, ...events.map((type) => ({ value: type, label: type }))]}
          />
          <Textarea
            label={texts.payload}
            placeholder='{"message": "Hi"}'
            rows={3}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={payload}
            onChange={(event) => onPayload(event.currentTarget.value)}
          />
          <Group>
            <Button onClick={onSend} disabled={!eventType}>
              {texts.button}
            </Button>
          </Group>
        </>
      )}
      {outcome &&
        (outcome.kind === 'sent' ? (
          <Text size="sm" role="status" c="green.8">
            {outcome.message}
          </Text>
        ) : (
          <Alert color="red" role="alert" title={texts.title} p="xs">
            {outcome.message}
          </Alert>
        ))}
    </Stack>
  );
}
