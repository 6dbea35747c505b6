import { Button, Code, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { HISTORY_TEXTS } from '@/config/history-texts';
import { jobToolOf } from '@/config/job-tools';
import type { Media } from '@/machines/job-history/job-history.machine';
import { jobParameters } from '@/screens/history/history-view';

/** A job's exact parameters, every argument it ran with, read-only. */
export function JobParametersModal({ media, onClose }: { media: Media | null; onClose: () => void }) {
  const title = media ? HISTORY_TEXTS.parametersTitle(jobToolOf(media.tool).title) : '';
  const parameters = media ? jobParameters(media) : [];
  return (
    <Modal opened={media !== null} onClose={onClose} title={title} size="lg">
      <Stack gap="sm">
        {parameters.length === 0 ? (
          <Text c="dimmed">{HISTORY_TEXTS.noParameters}</Text>
        ) : (
          <Table withTableBorder withColumnBorders aria-label={title}>
            <Table.Tbody>
              {parameters.map((parameter) => (
                <Table.Tr key={parameter.name}>
                  <Table.Th scope="row" style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                    {parameter.name}
                  </Table.Th>
                  <Table.Td>
                    <Code block={parameter.value.includes('\n')} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                      {parameter.value}
                    </Code>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {HISTORY_TEXTS.close}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
