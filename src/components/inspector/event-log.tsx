import { Table, UnstyledButton } from '@mantine/core';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import type { InspectionRecord } from '@/lib/inspection/hub';
import type { JsonValue } from '@/lib/inspection/json-safe';

const stateText = (value: JsonValue | undefined): string => {
  if (value === undefined || value === null) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
};

const timeText = (time: number): string => {
  const date = new Date(time);
  return `${date.toLocaleTimeString([], { hour12: false })}.${String(date.getMilliseconds()).padStart(3, '0')}`;
};

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
              <Table.Td>
                <UnstyledButton onClick={() => onSeek(index)} fz="xs" style={{ minHeight: 24 }}>
                  {timeText(record.time)}
                </UnstyledButton>
              </Table.Td>
              <Table.Td>{record.actorId}</Table.Td>
              <Table.Td>{record.event}</Table.Td>
              <Table.Td>
                {stateText(record.from)} → {stateText(record.to)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
