import { Button, Loader, Stack, Text, Title } from '@mantine/core';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { formatDateTime } from '@/lib/format';
import type { ProblemReportSummary } from '@/machines/inspector/inspector.machine';
import type { ReportsStatus } from '@/machines/inspector/inspector.selectors';

interface ProblemReportListProps {
  status: ReportsStatus;
  reports: readonly ProblemReportSummary[];
  onOpen: (report: ProblemReportSummary) => void;
}

/** The problem reports a local Kinora keeps (issue 22 item 5): each replays on the charts. */
export function ProblemReportList({ status, reports, onOpen }: ProblemReportListProps) {
  if (status === 'off') return null;
  return (
    <Stack gap={4} component="section" aria-labelledby="inspector-problem-reports">
      <Title order={2} size="h4" id="inspector-problem-reports">
        {INSPECTOR_TEXTS.report.listTitle}
      </Title>
      <Text size="xs" c="dimmed">
        {INSPECTOR_TEXTS.report.listHint}
      </Text>
      {status === 'loading' && <Loader size="xs" aria-label={INSPECTOR_TEXTS.report.listTitle} />}
      {status === 'failed' && (
        <Text size="sm" c="red">
          {INSPECTOR_TEXTS.report.listFailed}
        </Text>
      )}
      {status === 'ready' && reports.length === 0 && (
        <Text size="sm" c="dimmed">
          {INSPECTOR_TEXTS.report.listEmpty}
        </Text>
      )}
      {status === 'ready' && reports.length > 0 && (
        <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {reports.map((report) => {
            const when = formatDateTime(report.created_at);
            return (
              <li key={report.id}>
                <Button
                  variant="subtle"
                  size="compact-sm"
                  justify="start"
                  fullWidth
                  onClick={() => onOpen(report)}
                  aria-label={INSPECTOR_TEXTS.report.replay(report.title, when)}
                >
                  {`${report.title} · ${when}`}
                </Button>
              </li>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}
