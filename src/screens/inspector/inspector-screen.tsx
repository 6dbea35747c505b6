import {
  Alert,
  Box,
  Button,
  FileButton,
  Grid,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Slider,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ActorList } from '@/components/inspector/actor-list';
import { ChartViewControls } from '@/components/inspector/chart-view-controls';
import { SendEventPanel } from '@/components/inspector/send-event-panel';
import { ContextTree } from '@/components/inspector/context-tree';
import { EventLog } from '@/components/inspector/event-log';
import { StatechartDiagram } from '@/components/inspector/statechart-diagram';
import { SequenceDiagram } from '@/components/inspector/sequence-diagram';
import { layoutSequence } from '@/lib/inspection/sequence';
import { useCanInspect } from '@/components/inspector/use-can-inspect';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { inspectionHub } from '@/lib/inspection/hub';
import { fitZoom } from '@/lib/inspection/chart-find';
import { candidateEvents } from '@/lib/inspection/send-event';
import { activePaths } from '@/lib/inspection/statechart-graph';
import { catalogEntry, MACHINE_CATALOG } from '@/machines/catalog';
import { visibleIndices, type LogScope } from '@/machines/inspector/inspector-log';
import { inspectorMachine } from '@/machines/inspector/inspector.machine';
import {
  actorsToList,
  logView,
  selectCursor,
  sameChartFind,
  selectChartFind,
  selectDiagramStatus,
  selectFindQuery,
  selectSendOutcome,
  selectSendPayload,
  selectSendType,
  selectZoom,
  selectIsReplay,
  selectLayout,
  selectLiveActors,
  selectLoadedName,
  selectLoadError,
  selectLogScope,
  selectMachineId,
  selectMode,
  selectRecords,
  selectMessages,
  sequenceUntil,
  selectSelectedSessionId,
  selectSavedJobs,
  selectSavedNote,
  selectReports,
  selectReportsStatus,
  viewedState,
  visitedPaths,
} from '@/machines/inspector/inspector.selectors';
import { SavedJobList } from '@/components/inspector/saved-job-list';
import { ProblemReportList } from '@/components/inspector/problem-report-list';
import ProblemReportDialog from '@/components/inspector/problem-report-dialog';

const labelOf = (machineId: string): string => catalogEntry(machineId)?.label ?? machineId;

const valueText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

function Inspector({ preselectActorId, preselectMediaId }: { preselectActorId: string | null; preselectMediaId: string | null }) {
  const inspector = useActorRef(inspectorMachine, { input: { hub: inspectionHub, preselectActorId, preselectMediaId } });
  const savedJobs = useSelector(inspector, selectSavedJobs);
  const savedNote = useSelector(inspector, selectSavedNote);
  const reports = useSelector(inspector, selectReports);
  const reportsStatus = useSelector(inspector, selectReportsStatus);
  const [reporting, setReporting] = useState(false);
  const mode = useSelector(inspector, selectMode);
  const replay = useSelector(inspector, selectIsReplay);
  const records = useSelector(inspector, selectRecords);
  const liveActors = useSelector(inspector, selectLiveActors);
  const cursor = useSelector(inspector, selectCursor);
  const selectedSessionId = useSelector(inspector, selectSelectedSessionId);
  const machineId = useSelector(inspector, selectMachineId);
  const scope = useSelector(inspector, selectLogScope);
  const loadedName = useSelector(inspector, selectLoadedName);
  const loadError = useSelector(inspector, selectLoadError);
  const layout = useSelector(inspector, selectLayout);
  const diagramStatus = useSelector(inspector, selectDiagramStatus);
  const zoom = useSelector(inspector, selectZoom);
  const findQuery = useSelector(inspector, selectFindQuery);
  const found = useSelector(inspector, selectChartFind, sameChartFind);
  const chartView = useRef<HTMLDivElement>(null);
  const sendType = useSelector(inspector, selectSendType);
  const sendPayload = useSelector(inspector, selectSendPayload);
  const sendOutcome = useSelector(inspector, selectSendOutcome);

  const actors = useMemo(
    () => actorsToList(replay, liveActors, records, selectedSessionId),
    [replay, liveActors, records, selectedSessionId],
  );
  const viewed = useMemo(() => viewedState(records, selectedSessionId, cursor), [records, selectedSessionId, cursor]);
  const active = useMemo(() => activePaths(viewed.value), [viewed.value]);
  // A recorded path (a loaded log, a job's kept path) is marked on the chart; live, the highlight is enough.
  const visited = useMemo(() => (replay ? visitedPaths(records, selectedSessionId, cursor) : undefined), [replay, records, selectedSessionId, cursor]);
  const log = useMemo(() => logView(records, scope, selectedSessionId, cursor), [records, scope, selectedSessionId, cursor]);
  // The statechart or the sequence of messages between actors (issue 22 item 3), in the same place.
  // "Both" puts the sequence beside the statechart (below it where the page is narrow).
  const [chartKind, setChartKind] = useState<'statechart' | 'sequence' | 'both'>('statechart');
  const showChart = chartKind !== 'sequence';
  const messages = useSelector(inspector, selectMessages);
  // Up to the view's position when paused or replayed; the chosen actor's messages unless the log shows all.
  const until = sequenceUntil(records, cursor);
  const focus = scope === 'actor' ? selectedSessionId : null;
  const sequence = useMemo(
    () => (chartKind !== 'statechart' ? layoutSequence(messages, { until, focus }) : null),
    [chartKind, messages, until, focus],
  );
  const indices = useMemo(() => visibleIndices(records, scope, selectedSessionId), [records, scope, selectedSessionId]);

  const send = inspector.send;
  const live = mode === 'following' || mode === 'paused';
  const machineLabel = machineId ? labelOf(machineId) : '';
  // Events go to a live actor while the view follows it, so what is shown is what it is in now.
  const canSend = mode === 'following' && liveActors.some((actor) => actor.sessionId === selectedSessionId);
  const sendable = useMemo(() => (canSend && layout ? candidateEvents(layout, active) : []), [canSend, layout, active]);

  return (
    <Stack gap="md">
      <ProblemReportDialog
        opened={reporting}
        onClose={() => {
          setReporting(false);
          send({ type: 'inspector.refreshReports' });
        }}
        job={null}
        records={records}
        messages={messages}
      />
      <Group gap="xs" wrap="wrap" role="toolbar" aria-label={INSPECTOR_TEXTS.controls}>
        {mode === 'following' && <Button onClick={() => send({ type: 'inspector.pause' })}>{INSPECTOR_TEXTS.pause}</Button>}
        {mode === 'paused' && <Button onClick={() => send({ type: 'inspector.resume' })}>{INSPECTOR_TEXTS.resume}</Button>}
        {mode === 'replayStopped' && <Button onClick={() => send({ type: 'inspector.play' })}>{INSPECTOR_TEXTS.play}</Button>}
        {mode === 'replayPlaying' && <Button onClick={() => send({ type: 'inspector.stop' })}>{INSPECTOR_TEXTS.stopReplay}</Button>}
        <Button variant="default" onClick={() => send({ type: 'inspector.stepBack' })} disabled={mode === 'loading'}>
          {INSPECTOR_TEXTS.stepBack}
        </Button>
        <Button
          variant="default"
          onClick={() => send({ type: 'inspector.stepForward' })}
          disabled={mode === 'loading' || mode === 'following'}
        >
          {INSPECTOR_TEXTS.stepForward}
        </Button>
        <Button variant="default" onClick={() => send({ type: 'inspector.export' })}>
          {INSPECTOR_TEXTS.exportLog}
        </Button>
        <FileButton accept="application/json,.json" onChange={(file) => file && send({ type: 'inspector.load', file })}>
          {(props) => (
            <Button variant="default" {...props} loading={mode === 'loading'}>
              {INSPECTOR_TEXTS.loadLog}
            </Button>
          )}
        </FileButton>
        <Button variant="default" color="red" onClick={() => setReporting(true)}>
          {INSPECTOR_TEXTS.report.button}
        </Button>
        {replay && (
          <Button variant="subtle" onClick={() => send({ type: 'inspector.live' })}>
            {INSPECTOR_TEXTS.backToLive}
          </Button>
        )}
      </Group>
      {mode === 'paused' && (
        <Text size="sm" role="status">
          {INSPECTOR_TEXTS.paused}
        </Text>
      )}
      {savedNote && (
        <Text size="sm" role="status">
          {savedNote}
        </Text>
      )}
      {loadError && (
        <Alert color="red" role="alert" title={INSPECTOR_TEXTS.loadLog}>
          {loadError}
        </Alert>
      )}
      {replay && loadedName && (
        <Text size="sm" role="status">
          {INSPECTOR_TEXTS.loaded(records.length, loadedName)}
        </Text>
      )}
      {(replay || mode === 'paused') && log.total > 0 && (
        <Box px="xs">
          <Text size="sm" id="inspector-position">
            {INSPECTOR_TEXTS.positionText(log.position, log.total)}
          </Text>
          <Slider
            min={0}
            max={Math.max(0, log.total - 1)}
            value={log.position}
            onChange={(position) => send({ type: 'inspector.seek', index: indices[position] ?? 0 })}
            label={null}
            thumbLabel={INSPECTOR_TEXTS.position}
          />
        </Box>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Stack gap="sm">
            <NativeSelect
              label={INSPECTOR_TEXTS.machinePicker}
              value={machineId ?? ''}
              onChange={(event) => send({ type: 'inspector.selectMachine', machineId: event.currentTarget.value })}
              data={[
                { value: '', label: INSPECTOR_TEXTS.machinePickerPlaceholder, disabled: true },
                ...MACHINE_CATALOG.map((entry) => ({ value: entry.id, label: entry.label })),
              ]}
            />
            <Title order={2} size="h4">
              {live ? INSPECTOR_TEXTS.liveActors : INSPECTOR_TEXTS.loadedActors}
            </Title>
            <ActorList
              label={live ? INSPECTOR_TEXTS.liveActors : INSPECTOR_TEXTS.loadedActors}
              actors={actors}
              selectedSessionId={selectedSessionId}
              labelOf={labelOf}
              onSelect={(sessionId) => send({ type: 'inspector.selectActor', sessionId })}
            />
            <SavedJobList jobs={savedJobs} onOpen={(actorId) => send({ type: 'inspector.openSaved', actorId })} />
            <ProblemReportList
              status={reportsStatus}
              reports={reports}
              onOpen={(report) => send({ type: 'inspector.openReport', id: report.id, title: report.title })}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Stack gap="sm">
            {selectedSessionId && (
              <Text size="sm" role="status" aria-label={INSPECTOR_TEXTS.currentState}>
                {INSPECTOR_TEXTS.currentState}: <strong data-testid="inspector-current-state">{valueText(viewed.value)}</strong>
                {viewed.status && viewed.status !== 'active' ? ` (${viewed.status})` : ''}
              </Text>
            )}
            <SegmentedControl
              aria-label={INSPECTOR_TEXTS.sequence.viewPicker}
              size="xs"
              style={{ alignSelf: 'flex-start' }}
              value={chartKind}
              onChange={(value) => setChartKind(value === 'sequence' || value === 'both' ? value : 'statechart')}
              data={[
                { value: 'statechart', label: INSPECTOR_TEXTS.sequence.statechart },
                { value: 'sequence', label: INSPECTOR_TEXTS.sequence.sequence },
                { value: 'both', label: INSPECTOR_TEXTS.sequence.both },
              ]}
            />
            {showChart && diagramStatus === 'ready' && layout && (
              <ChartViewControls
                zoom={zoom}
                query={findQuery}
                matchCount={found.matches.length}
                matchIndex={found.index}
                onZoomIn={() => send({ type: 'inspector.zoomIn' })}
                onZoomOut={() => send({ type: 'inspector.zoomOut' })}
                // The view's inner width against the drawing's (20 px of margin around the chart).
                onFit={() => send({ type: 'inspector.zoomTo', scale: fitZoom((chartView.current?.clientWidth ?? 0) - 24, layout.width + 20) })}
                onActualSize={() => send({ type: 'inspector.zoomTo', scale: 1 })}
                onFind={(query) => send({ type: 'inspector.find', query })}
                onFindNext={(back) => send({ type: 'inspector.findNext', back })}
              />
            )}
            <SimpleGrid cols={{ base: 1, lg: chartKind === 'both' ? 2 : 1 }} spacing="sm">
              {/* Hidden, not unmounted, under the sequence: the chart keeps its scroll and zoom. */}
              <Paper ref={chartView} withBorder p="xs" style={{ overflow: 'auto', maxHeight: '60vh', display: showChart ? undefined : 'none' }}>
                {diagramStatus === 'idle' && <Text c="dimmed">{INSPECTOR_TEXTS.noMachine}</Text>}
                {diagramStatus === 'layingOut' && (
                  <Group gap="xs">
                    <Loader size="sm" />
                    <Text>{INSPECTOR_TEXTS.diagramLoading}</Text>
                  </Group>
                )}
                {diagramStatus === 'failed' && <Text c="red">{INSPECTOR_TEXTS.diagramFailed}</Text>}
                {diagramStatus === 'ready' && layout && (
                  <StatechartDiagram
                    layout={layout}
                    active={active}
                    title={INSPECTOR_TEXTS.diagram(machineLabel)}
                    scale={zoom}
                    matches={found.matches}
                    current={found.current}
                    visited={visited}
                  />
                )}
              </Paper>
              {sequence && (
                <Paper withBorder p="xs" style={{ minWidth: 0 }}>
                  {focus && (
                    <Text size="xs" c="dimmed" mb={4}>
                      {INSPECTOR_TEXTS.sequence.scopeHint}
                    </Text>
                  )}
                  <SequenceDiagram layout={sequence} />
                </Paper>
              )}
            </SimpleGrid>
            <Grid gap="md">
              {/* Side by side only where the log still has room for a job id and an event name on one line. */}
              <Grid.Col span={{ base: 12, xl: 5 }}>
                <Title order={2} size="h4" mb="xs">
                  {INSPECTOR_TEXTS.context}
                </Title>
                {viewed.record ? (
                  <ContextTree value={viewed.context} label={INSPECTOR_TEXTS.context} />
                ) : (
                  <Text c="dimmed">{INSPECTOR_TEXTS.contextEmpty}</Text>
                )}
                {selectedSessionId && (
                  <SendEventPanel
                    events={sendable}
                    enabled={canSend}
                    eventType={sendType}
                    payload={sendPayload}
                    outcome={sendOutcome}
                    onChoose={(eventType) => send({ type: 'inspector.chooseEvent', eventType })}
                    onPayload={(text) => send({ type: 'inspector.editPayload', text })}
                    onSend={() => send({ type: 'inspector.sendEvent' })}
                  />
                )}
              </Grid.Col>
              <Grid.Col span={{ base: 12, xl: 7 }}>
                <Group justify="space-between" mb="xs">
                  <Title order={2} size="h4">
                    {INSPECTOR_TEXTS.eventLog}
                  </Title>
                  <SegmentedControl
                    aria-label={INSPECTOR_TEXTS.logScope}
                    size="xs"
                    value={scope}
                    onChange={(value) => send({ type: 'inspector.setLogScope', scope: value as LogScope })}
                    data={[
                      { value: 'actor', label: INSPECTOR_TEXTS.logScopeActor },
                      { value: 'all', label: INSPECTOR_TEXTS.logScopeAll },
                    ]}
                  />
                </Group>
                {log.total === 0 ? (
                  <Text c="dimmed">{INSPECTOR_TEXTS.logEmpty}</Text>
                ) : (
                  <EventLog rows={log.rows} cursor={cursor} onSeek={(index) => send({ type: 'inspector.seek', index })} />
                )}
              </Grid.Col>
            </Grid>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** The QA machine inspector (issue 8): for the Developer group, or anyone in local mode. */
export function InspectorScreen() {
  const allowed = useCanInspect();
  const [search] = useSearchParams();
  return (
    <Stack gap="md">
      <Title order={1}>{INSPECTOR_TEXTS.title}</Title>
      {allowed ? (
        <Inspector preselectActorId={search.get('actor')} preselectMediaId={search.get('media')} />
      ) : (
        <Alert color="gray" title={INSPECTOR_TEXTS.notAvailableTitle}>
          {INSPECTOR_TEXTS.notAvailable}
        </Alert>
      )}
    </Stack>
  );
}
