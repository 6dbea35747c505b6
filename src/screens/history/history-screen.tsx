import { Alert, Anchor, Badge, Button, Container, Group, Paper, Progress, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { Link, useSearchParams } from 'react-router-dom';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { useCanInspect } from '@/components/inspector/use-can-inspect';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { SessionActorContext } from '@/components/session/session-context';
import { HISTORY_TEXTS } from '@/config/history-texts';
import { QUEUE_TEXTS } from '@/config/queue-texts';
import { EditQueuedJobModal } from '@/components/jobs/edit-queued-job-modal';
import { ResultLightboxProvider } from '@/components/media/result-lightbox';
import { QueueControls } from '@/components/jobs/queue-controls';
import { JOB_TOOLS, jobToolOf } from '@/config/job-tools';
import { LIBRARY_TEXTS } from '@/config/library-texts';
import { ROUTES } from '@/config/routes';
import { formatDateTime } from '@/lib/format';
import { inspect } from '@/lib/inspection/hub';
import { selectAssetTools, selectMediaTools } from '@/machines/app-config/app-config.selectors';
import { selectSignInUndecided } from '@/machines/credits-page/credits-page.selectors';
import { JOB_SEARCH_STATUS_LABELS, jobHistoryMachine, type Media } from '@/machines/job-history/job-history.machine';
import {
  selectHistoryError,
  selectHistoryFocusedId,
  selectHistoryFocusMissing,
  selectHistoryHasMore,
  selectHistoryItems,
  selectHistoryLoadingMore,
  selectCanRerun,
  selectHistoryStatus,
  selectRerunningId,
  selectRerunOutcome,
} from '@/machines/job-history/job-history.selectors';
import { queueControlMachine } from '@/machines/queue-control/queue-control.machine';
import { selectQueueActions, selectQueueBusy, selectQueueError, selectQueueMedia } from '@/machines/queue-control/queue-control.selectors';
import { selectCurrentUserId, selectIsSignedIn } from '@/machines/session/session.selectors';
import { HistoryFilters } from '@/screens/history/history-filters';
import { JobParametersModal } from '@/screens/history/job-parameters-modal';
import { RunPictures } from '@/screens/history/history-pictures';
import {
  historyLightboxPicturesOf,
  inspectPath,
  modelLabel,
  promptOf,
  remixPath,
  seedOf,
  shortened,
  STATUS_COLORS,
  statusOf,
} from '@/screens/history/history-view';

type HistoryRef = ActorRefFrom<typeof jobHistoryMachine>;

/** SPEC §4: a job not yet started (issue 21 item 2: the one that may be held, run next or edited). */
const WAITING_STATUS = 'queue_source';

/** Tools whose jobs can be run again once ended (an upload is not a job to repeat). */
const RERUNNABLE: ReadonlySet<string> = new Set(JOB_TOOLS.map((tool) => tool.slug));

interface HistoryRowProps {
  history: HistoryRef;
  media: Media;
  /** `?job=` named it: brought into view, focused and outlined. */
  focused: boolean;
  onShowParameters: (media: Media) => void;
}

/** The status word of a row: a job not ended says Held, Queued (no worker has it yet) or Running. */
function statusLabel(media: Media, status: ReturnType<typeof statusOf>): string {
  if (status !== 'live') return JOB_SEARCH_STATUS_LABELS[status];
  if (media.held) return QUEUE_TEXTS.heldPhase;
  return media.status === WAITING_STATUS ? HISTORY_TEXTS.queued : JOB_SEARCH_STATUS_LABELS.live;
}

/** One job of the list: what it was, how it went, and what can be done with it. */
function HistoryRow(props: HistoryRowProps) {
  // A job still waiting may be held, resumed, run next or edited (issue 21 item 2): its own
  // machine, told of each newer answer the list's live read brings for it.
  if (props.media.status === WAITING_STATUS) return <WaitingHistoryRow {...props} />;
  return <HistoryRowView {...props} />;
}

/** A waiting job's row: the job as its queue-control machine last had it, with its queue controls. */
function WaitingHistoryRow({ media: listed, ...props }: HistoryRowProps) {
  const queue = useActorRef(queueControlMachine, { input: { media: listed }, inspect });
  const media = useSelector(queue, selectQueueMedia);
  const error = useSelector(queue, selectQueueError);
  const busy = useSelector(queue, selectQueueBusy);
  const actions = useSelector(queue, selectQueueActions, shallowEqual);
  const [editing, setEditing] = useState(false);
  const tool = jobToolOf(media.tool).title;
  // The row follows the job live (its place, held): the machine takes each newer read while idle.
  useEffect(() => {
    queue.send({ type: 'queue.sync', media: listed });
  }, [queue, listed]);
  return (
    <HistoryRowView
      {...props}
      media={media}
      queue={
        <>
          <QueueControls
            toolTitle={tool}
            actions={actions}
            busy={busy}
            position={media.queue_position ?? null}
            held={media.held}
            error={error}
            onHold={() => queue.send({ type: 'queue.hold' })}
            onResume={() => queue.send({ type: 'queue.resume' })}
            onRunNext={() => queue.send({ type: 'queue.runNext' })}
            onEdit={() => setEditing(true)}
          />
          <EditQueuedJobModal
            media={editing && actions.edit ? media : null}
            toolTitle={tool}
            onClose={() => setEditing(false)}
            onSave={(edit) => queue.send({ type: 'queue.edit', edit })}
          />
        </>
      }
    />
  );
}

function HistoryRowView({ history, media, focused, onShowParameters, queue }: HistoryRowProps & { queue?: ReactNode }) {
  const ref = useRef<HTMLTableRowElement>(null);
  const assetTools = AppConfigActorContext.useSelector(selectAssetTools);
  const mediaTools = AppConfigActorContext.useSelector(selectMediaTools);
  const rerunning = useSelector(history, selectRerunningId);
  const canRerun = useSelector(history, selectCanRerun);
  const mayInspect = useCanInspect();
  const tool = jobToolOf(media.tool).title;
  const status = statusOf(media);
  const prompt = promptOf(media);
  const remix = remixPath(media);
  useEffect(() => {
    if (!focused) return;
    ref.current?.scrollIntoView({ block: 'center' });
    ref.current?.focus({ preventScroll: true });
  }, [focused]);
  return (
    <Table.Tr
      ref={ref}
      aria-current={focused ? 'true' : undefined}
      tabIndex={focused ? -1 : undefined}
      style={focused ? { outline: '3px solid var(--mantine-color-blue-6)', outlineOffset: -3 } : undefined}
    >
      <Table.Th scope="row" fw={600} style={{ whiteSpace: 'nowrap' }}>
        {tool}
      </Table.Th>
      <Table.Td>{modelLabel(media.option, assetTools, mediaTools)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {/* The label is never cut short: the table is as wide as its words need (it scrolls). */}
        <Badge color={STATUS_COLORS[status]} variant="light" style={{ textTransform: 'none', overflow: 'visible' }} styles={{ label: { overflow: 'visible' } }}>
          {statusLabel(media, status)}
        </Badge>
        {status === 'live' && media.status !== WAITING_STATUS && (
          <Progress value={media.progress} size="sm" mt={6} aria-label={HISTORY_TEXTS.progressOf(tool)} />
        )}
      </Table.Td>
      <Table.Td title={prompt ?? undefined}>{prompt ? shortened(prompt) : HISTORY_TEXTS.noPrompt}</Table.Td>
      <Table.Td>{seedOf(media) ?? HISTORY_TEXTS.noPrompt}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{HISTORY_TEXTS.cost(media.cost, media.refunded)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(media.created_at)}</Table.Td>
      <Table.Td>
        <RunPictures media={media} tool={tool} />
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          {queue}
          {/* Wrapped onto a second line when the column is narrow, never cut short. */}
          <Group gap={6}>
            <Button size="compact-sm" variant="default" aria-label={HISTORY_TEXTS.parametersOf(tool)} onClick={() => onShowParameters(media)}>
              {HISTORY_TEXTS.parameters}
            </Button>
            {RERUNNABLE.has(media.tool) && status !== 'live' && (
              <Button
                size="compact-sm"
                variant="light"
                aria-label={HISTORY_TEXTS.rerunLabel(tool)}
                loading={rerunning === media.id}
                disabled={!canRerun}
                onClick={() => history.send({ type: 'history.rerun', mediaId: media.id })}
              >
                {HISTORY_TEXTS.rerun}
              </Button>
            )}
            {RERUNNABLE.has(media.tool) && status !== 'live' && media.kind === 'image' && (
              <Button
                size="compact-sm"
                variant="light"
                aria-label={HISTORY_TEXTS.varyLabel(tool)}
                disabled={!canRerun}
                onClick={() => history.send({ type: 'history.vary', mediaId: media.id })}
              >
                {HISTORY_TEXTS.vary}
              </Button>
            )}
            {remix && (
              <Anchor component={Link} to={remix} size="sm" aria-label={HISTORY_TEXTS.remixLabel(tool)}>
                {HISTORY_TEXTS.remix}
              </Anchor>
            )}
            {/* A finished result is in the Library: opened there, brought into view and outlined. */}
            {status === 'succeeded' && (
              <Anchor component={Link} to={ROUTES.libraryItem(media.id)} size="sm" aria-label={LIBRARY_TEXTS.openInLibraryLabel(tool)}>
                {LIBRARY_TEXTS.openInLibrary}
              </Anchor>
            )}
            {mayInspect && (
              <Anchor component={Link} to={inspectPath(media)} size="sm" aria-label={HISTORY_TEXTS.inspectLabel(tool)}>
                {HISTORY_TEXTS.inspect}
              </Anchor>
            )}
          </Group>
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

/** How the last Re-run went: the new job is in the jobs panel, or the server's message. */
function RerunOutcome({ history }: { history: HistoryRef }) {
  const outcome = useSelector(history, selectRerunOutcome, shallowEqual);
  if (!outcome) return null;
  const dismiss = () => history.send({ type: 'history.dismissRerun' });
  return outcome.error !== null ? (
    <Alert color="red" role="alert" withCloseButton onClose={dismiss} closeButtonLabel={HISTORY_TEXTS.close}>
      {HISTORY_TEXTS.rerunFailed} {outcome.error}
    </Alert>
  ) : (
    <Alert color="green" role="status" withCloseButton onClose={dismiss} closeButtonLabel={HISTORY_TEXTS.close}>
      {HISTORY_TEXTS.rerunStarted(jobToolOf(outcome.started?.tool ?? '').title)}
    </Alert>
  );
}

const COLUMNS = HISTORY_TEXTS.columns;

/** The list: loading placeholders, a failure with a retry, an empty state, or the jobs and "Load more". */
function HistoryList({ history }: { history: HistoryRef }) {
  const status = useSelector(history, selectHistoryStatus);
  const items = useSelector(history, selectHistoryItems);
  const hasMore = useSelector(history, selectHistoryHasMore);
  const loadingMore = useSelector(history, selectHistoryLoadingMore);
  const error = useSelector(history, selectHistoryError);
  const focusedId = useSelector(history, selectHistoryFocusedId);
  const [shown, setShown] = useState<Media | null>(null);

  if (status === 'loading') {
    return (
      <Stack gap="xs" role="status" aria-label={HISTORY_TEXTS.loading} aria-busy="true">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} height={36} radius="sm" />
        ))}
      </Stack>
    );
  }
  if (status === 'failed') {
    return (
      <Alert color="red" title={HISTORY_TEXTS.failed} role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{error}</Text>
          <Button variant="default" size="xs" onClick={() => history.send({ type: 'history.retry' })}>
            {HISTORY_TEXTS.retry}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (status === 'empty' || status === 'empty-filtered') {
    return (
      <Stack gap={4} role="status">
        <Text fw={600}>{status === 'empty' ? HISTORY_TEXTS.empty : HISTORY_TEXTS.emptyFiltered}</Text>
        {status === 'empty' && <Text c="dimmed">{HISTORY_TEXTS.emptyHint}</Text>}
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      {/* The runs' pictures open in one lightbox over the page. */}
      <ResultLightboxProvider pictures={historyLightboxPicturesOf(items)}>
        {/* Wide enough for every action of a row on one line; narrower screens scroll it sideways. */}
        <Table.ScrollContainer minWidth={1420}>
          <Table striped highlightOnHover aria-label={HISTORY_TEXTS.tableLabel}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{COLUMNS.tool}</Table.Th>
                <Table.Th scope="col">{COLUMNS.model}</Table.Th>
                <Table.Th scope="col">{COLUMNS.status}</Table.Th>
                <Table.Th scope="col">{COLUMNS.prompt}</Table.Th>
                <Table.Th scope="col">{COLUMNS.seed}</Table.Th>
                <Table.Th scope="col">{COLUMNS.cost}</Table.Th>
                <Table.Th scope="col">{COLUMNS.created}</Table.Th>
                <Table.Th scope="col">{COLUMNS.result}</Table.Th>
                <Table.Th scope="col">{COLUMNS.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((media) => (
                <HistoryRow key={media.id} history={history} media={media} focused={media.id === focusedId} onShowParameters={setShown} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </ResultLightboxProvider>
      {error && (
        <Text c="red" size="sm" role="alert">
          {HISTORY_TEXTS.moreFailed} {error}
        </Text>
      )}
      {hasMore && (
        <Group justify="center">
          <Button variant="light" loading={loadingMore} onClick={() => history.send({ type: 'history.loadMore' })}>
            {error ? HISTORY_TEXTS.retry : HISTORY_TEXTS.loadMore}
          </Button>
        </Group>
      )}
      <JobParametersModal media={shown} onClose={() => setShown(null)} />
    </Stack>
  );
}

/** `?job=` named a job that is not listed. */
function FocusMissing({ history }: { history: HistoryRef }) {
  const missing = useSelector(history, selectHistoryFocusMissing);
  if (!missing) return null;
  return (
    <Alert color="yellow" role="status" withCloseButton closeButtonLabel={HISTORY_TEXTS.close} onClose={() => history.send({ type: 'history.dismissFocus' })}>
      {HISTORY_TEXTS.jobMissing}
    </Alert>
  );
}

/**
 * The signed-in person's History: one machine per person (and per `?job=`), handed the jobs
 * registry for re-runs.
 */
function History({ focusId }: { focusId: string | null }) {
  const jobs = JobsActorContext.useActorRef();
  const history = useActorRef(jobHistoryMachine, { id: 'jobHistory', input: { jobs, focusId }, inspect });
  return (
    <Stack gap="md">
      <HistoryFilters history={history} />
      <FocusMissing history={history} />
      <RerunOutcome history={history} />
      <HistoryList history={history} />
    </Stack>
  );
}

/**
 * /history (issue 21 item 1, "Jobs from any device"): every job the person ran, on any device,
 * from the server: filters, the list paged by next_start_keys, each job's exact parameters,
 * Re-run, Remix and Inspect; `?job={id}` (the Library's "Show in History") brings that job into
 * view. Signed out: a prompt to sign in and no calls.
 */
export function HistoryScreen() {
  const deciding = SessionActorContext.useSelector(selectSignInUndecided);
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const userId = SessionActorContext.useSelector(selectCurrentUserId);
  const [params] = useSearchParams();
  const focusId = params.get('job');
  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1}>{HISTORY_TEXTS.title}</Title>
          <Text c="dimmed">{HISTORY_TEXTS.intro}</Text>
        </Stack>
        {deciding ? (
          <Skeleton height={120} radius="md" aria-hidden="true" />
        ) : signedIn ? (
          <History key={`${userId ?? ''}\n${focusId ?? ''}`} focusId={focusId} />
        ) : (
          <Paper withBorder p="lg" radius="md">
            <Stack gap="xs" align="flex-start">
              <Text>{HISTORY_TEXTS.signIn}</Text>
              <Button component={Link} to={ROUTES.authentication}>
                {HISTORY_TEXTS.signInButton}
              </Button>
            </Stack>
          </Paper>
        )}
      </Stack>
    </Container>
  );
}
