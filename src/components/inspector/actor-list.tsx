import { Badge, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import type { ActorSummary } from '@/machines/inspector/inspector-log';

const STATUS_COLORS: Record<string, string> = { active: 'green', done: 'blue', error: 'red', stopped: 'gray' };

interface ActorListProps {
  label: string;
  actors: readonly ActorSummary[];
  selectedSessionId: string | null;
  labelOf: (machineId: string) => string;
  onSelect: (sessionId: string) => void;
}

/** The actors to pick from: machine, id and status; the chosen one is pressed. */
export function ActorList({ label, actors, selectedSessionId, labelOf, onSelect }: ActorListProps) {
  if (actors.length === 0) return <Text c="dimmed">{INSPECTOR_TEXTS.noActors}</Text>;
  return (
    <Stack component="ul" gap={4} p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
      {actors.map((actor) => {
        const selected = actor.sessionId === selectedSessionId;
        return (
          <li key={actor.sessionId}>
            <UnstyledButton
              onClick={() => onSelect(actor.sessionId)}
              aria-pressed={selected}
              data-actor-id={actor.actorId}
              p={6}
              w="100%"
              style={{
                borderRadius: 6,
                border: `1px solid ${selected ? 'var(--mantine-color-orange-7)' : 'var(--mantine-color-default-border)'}`,
              }}
            >
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} truncate="end">
                    {labelOf(actor.machineId)}
                  </Text>
                  <Text size="xs" truncate="end">
                    {actor.actorId}
                  </Text>
                </div>
                <Badge
                  size="sm"
                  variant="light"
                  color={STATUS_COLORS[actor.status] ?? 'gray'}
                  style={{ textTransform: 'none', flexShrink: 0, overflow: 'visible' }}
                >
                  {INSPECTOR_TEXTS.actorStatus(actor.status)}
                </Badge>
              </Group>
            </UnstyledButton>
          </li>
        );
      })}
    </Stack>
  );
}
