import { Table, UnstyledButton } from '@mantine/core';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { formatClockTime } from '@/lib/format';
import type { InspectionRecord } from '@/lib/inspection/hub';
import type { JsonValue } from '@/lib/inspection/json-safe';

const stateText = (value: JsonValue | undefined): string => {
  if (value === undefined || value === null) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
};

const UUID = /([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * An actor id short enough for one line: a job's `job-<uuid>` keeps the uuid's first 8 digits
 * (`job-8f14e45f…`), enough to tell the jobs of one session apart; the full id stays in the title.
 */
export const shortActorId = (actorId: string): string => actorId.replace(UUID, '$1…');

// Time, actor and event stay on one line each (a long row scrolls sideways in its container
// instead of breaking a job id over four lines or an event name at its dots).
const ONE_LINE = { whiteSpace: 'nowrap' } as const;

interface EventLogProps {
  rows: { index: number; record: InspectionRecord }[];
  cursor: number | null;
  onSeek: (index: number) => void;
}

/** Time, actor, event and from → to of each transition; a row's time moves the view there. */
export function EventLog({ rows, cursor, onSeek }: EventLogProps) {
  const last = rows[rows.length - 1]?.index;
  const current = cursor ?? last;
  return (
    <Table.ScrollContainer minWidth={500} maxHeight={320}>
      <Table striped stickyHeader aria-label={INSPECTOR_TEXTS.eventLog} fz="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{INSPECTOR_TEXTS.logColumns.time}</Table.Th>
            <Table.Th>{INSPECTOR_TEXTS.logColumns.actor}</Table.Th>
            <Table.Th>{INSPECTOR_TEXTS.logColumns.event}</Table.Th>
            <Table.Th>{INSPECTOR_TEXTS.logColumns.transition}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(({ index, record }) => (
            <Table.Tr
              key={record.seq}
              aria-current={index === current ? 'true' : undefined}
              bg={index === current ? 'var(--mantine-color-orange-light)' : undefined}
            >
              <Table.Td style={ONE_LINE}>
                <UnstyledButton onClick={() => onSeek(index)} fz="xs" style={{ minHeight: 24 }}>
                  {formatClockTime(record.time)}
                </UnstyledButton>
              </Table.Td>
              <Table.Td style={ONE_LINE}>
                <abbr title={record.actorId} style={{ textDecoration: 'none' }}>
                  {shortActorId(record.actorId)}
                </abbr>
              </Table.Td>
              <Table.Td style={ONE_LINE}>{record.event}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere', minWidth: 160 }}>
                {stateText(record.from)} → {stateText(record.to)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
