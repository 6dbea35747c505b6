import { Alert, Button, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { CREDITS_TEXTS, formatCreditAmount, formatHistoryDate, LEDGER_KIND_LABELS } from '@/config/credits-texts';
import {
  selectHasMoreHistory,
  selectHistory,
  selectHistoryMoreFailed,
  selectHistoryStatus,
  selectIsLeaving,
  selectReceiptPaymentId,
} from '@/machines/credits-page/credits-page.selectors';
import { CreditsPageActorContext } from '@/screens/credits/credits-context';

const SKELETON_ROWS = 4;

/** Every ledger row, newest first, a page at a time; purchases open their receipt. */
export function CreditHistory() {
  const page = CreditsPageActorContext.useActorRef();
  const status = CreditsPageActorContext.useSelector(selectHistoryStatus);
  const entries = CreditsPageActorContext.useSelector(selectHistory);
  const hasMore = CreditsPageActorContext.useSelector(selectHasMoreHistory);
  const moreFailed = CreditsPageActorContext.useSelector(selectHistoryMoreFailed);
  const receiptPaymentId = CreditsPageActorContext.useSelector(selectReceiptPaymentId);
  const leaving = CreditsPageActorContext.useSelector(selectIsLeaving);
  const columns = CREDITS_TEXTS.columns;

  return (
    <Stack gap="sm" component="section" aria-labelledby="credits-history-title">
      <Title order={2} id="credits-history-title">
        {CREDITS_TEXTS.historyHeading}
      </Title>
      {status === 'loading' && (
        <Stack gap="xs" role="status" aria-label={CREDITS_TEXTS.historyLoading}>
          {Array.from({ length: SKELETON_ROWS }, (_, index) => (
            <Skeleton key={index} height={28} />
          ))}
        </Stack>
      )}
      {status === 'failed' && (
        <Alert color="red" role="alert">
          <Group justify="space-between">
            <Text>{CREDITS_TEXTS.historyFailed}</Text>
            <Button variant="default" size="xs" onClick={() => page.send({ type: 'history.retry' })}>
              {CREDITS_TEXTS.retry}
            </Button>
          </Group>
        </Alert>
      )}
      {(status === 'ready' || status === 'loadingMore') && entries.length === 0 && (
        <Text c="dimmed">{CREDITS_TEXTS.historyEmpty}</Text>
      )}
      {entries.length > 0 && status !== 'loading' && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-labelledby="credits-history-title">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{columns.date}</Table.Th>
                <Table.Th scope="col">{columns.kind}</Table.Th>
                <Table.Th scope="col">{columns.reason}</Table.Th>
                <Table.Th scope="col">{columns.amount}</Table.Th>
                <Table.Th scope="col">{columns.balanceAfter}</Table.Th>
                <Table.Th scope="col">{columns.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>
                    <time dateTime={entry.created_at}>{formatHistoryDate(entry.created_at)}</time>
                  </Table.Td>
                  <Table.Td>{LEDGER_KIND_LABELS[entry.kind] ?? entry.kind}</Table.Td>
                  <Table.Td>{entry.reason}</Table.Td>
                  <Table.Td c={entry.amount < 0 ? 'red' : 'green'} fw={600}>
                    {formatCreditAmount(entry.amount)}
                  </Table.Td>
                  <Table.Td>{entry.balance_after}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {entry.job_id && (
                        // A person's own job has no page of its own (private results are on their tool page),
                        // so the job is named for reference and support requests.
                        <Text size="xs" ff="monospace" c="dimmed" title={CREDITS_TEXTS.viewJob}>
                          {CREDITS_TEXTS.jobReference(entry.job_id)}
                        </Text>
                      )}
                      {entry.kind === 'purchase' && entry.payment_id && (
                        <Button
                          variant="default"
                          size="xs"
                          aria-label={CREDITS_TEXTS.receiptLabel(entry.reason)}
                          loading={receiptPaymentId === entry.payment_id}
                          disabled={leaving && receiptPaymentId !== entry.payment_id}
                          onClick={() => page.send({ type: 'receipt.open', paymentId: entry.payment_id ?? '' })}
                        >
                          {CREDITS_TEXTS.receipt}
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {moreFailed && hasMore && status !== 'loadingMore' ? (
        <Alert color="red" role="alert">
          <Group justify="space-between">
            <Text>{CREDITS_TEXTS.historyMoreFailed}</Text>
            <Button variant="default" size="xs" onClick={() => page.send({ type: 'history.retry' })}>
              {CREDITS_TEXTS.retry}
            </Button>
          </Group>
        </Alert>
      ) : (
        hasMore &&
        (status === 'ready' || status === 'loadingMore') && (
          <Group justify="center">
            <Button
              variant="default"
              loading={status === 'loadingMore'}
              onClick={() => page.send({ type: 'history.more' })}
            >
              {CREDITS_TEXTS.loadMore}
            </Button>
          </Group>
        )
      )}
    </Stack>
  );
}
