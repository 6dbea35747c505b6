import { Alert, Anchor, Button, Group, Paper, Progress, Radio, ScrollArea, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { shallowEqual } from '@xstate/react';
import { STORY_AUDIO_KINDS, STORY_AUDIO_TEXT_MAX, type StoryAudioKind } from '@/config/story';
import { STORY_TEXTS } from '@/config/story-texts';
import { DEFAULT_VOICE, VOICES } from '@/config/voices';
import { storyVideoModels, type StoryPartState } from '@/lib/story';
import { selectAudioCost, selectConcatProblem, selectFinalFilm, selectWizardState } from '@/machines/story/story-wizard.selectors';
import type { StoryScene } from '@/machines/story/story-wizard.machine';
import { ExportSection } from '@/screens/story/export-section';
import { PartTakes } from '@/screens/story/part-takes';
import { cssRatio, PaidAction, PartBadge, PartMedia, StoryActorContext, useCanRegenerate, useCreditBalance, usePaidPart, usePartJob, useStoryView } from '@/screens/story/story-parts';

const TEXTS = STORY_TEXTS.scriptboard;
const MODEL_DATA = storyVideoModels().map((model) => ({ value: model.value, label: TEXTS.modelOption(model.label, model.required_credits) }));
const VOICE_DATA = VOICES.map((voice) => ({ value: voice.value, label: voice.label }));
/** A second of film on the timeline, in pixels (a clip's width follows its length). */
const PIXELS_PER_SECOND = 36;

interface ClipProps {
  scene: StoryScene;
  number: number;
  state: StoryPartState;
  aspectRatio: string;
}

/** One clip of the timeline: its video (or progress), its state and "Regenerate video". */
function TimelineClip({ scene, number, state, aspectRatio }: ClipProps) {
  const story = StoryActorContext.useActorRef();
  const canRegenerate = useCanRegenerate('videos', scene.id);
  const name = TEXTS.clip(number, scene.duration);
  return (
    <Paper
      component="li"
      aria-label={name}
      withBorder
      p="xs"
      radius="md"
      style={{ flexGrow: scene.duration, flexBasis: 0, minWidth: Math.max(160, scene.duration * PIXELS_PER_SECOND), listStyle: 'none' }}
    >
      <Stack gap={6}>
        <Group justify="space-between" gap={4} wrap="nowrap">
          <Text size="sm" fw={600}>
            {name}
          </Text>
          <PartBadge state={state} hint={STORY_TEXTS.staleVideoHint} />
        </Group>
        <PartMedia mediaId={scene.video?.media_id} state={state} kind="video" label={TEXTS.videoLabel(number)} empty={TEXTS.noVideo} aspectRatio={cssRatio(aspectRatio)} />
        {state === 'stale' && (
          <Text size="xs" c="yellow.8">
            {STORY_TEXTS.staleVideoHint}
          </Text>
        )}
        <PartTakes part="videos" partId={scene.id} what={STORY_TEXTS.takes.sceneVideo(number)} />
        <Group>
          <Button
            variant="light"
            size="compact-xs"
            aria-label={state === 'missing' ? TEXTS.makeOneLabel(number) : TEXTS.regenerateLabel(number)}
            disabled={!canRegenerate}
            onClick={() => story.send({ type: 'part.generate', part: 'videos', ids: [scene.id] })}
          >
            {state === 'missing' ? TEXTS.makeOne : TEXTS.regenerate}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The sound under the film: none, a narration (text-to-speech) or music, then "Make sound". */
function SoundSection() {
  const story = StoryActorContext.useActorRef();
  const view = useStoryView();
  const balance = useCreditBalance();
  const cost = StoryActorContext.useSelector(selectAudioCost, shallowEqual);
  const can = StoryActorContext.useSelector((snapshot) => snapshot.can({ type: 'audio.generate' }));
  const track = usePartJob(view?.board.audio.track?.media_id);
  if (!view) return null;
  const { audio } = view.board;
  const state = view.states.audio;
  const editable = view.busy === null;
  const reason =
    audio.kind === 'none'
      ? null
      : audio.text.trim() === ''
        ? TEXTS.soundNeedsText
        : view.busy !== null
          ? STORY_TEXTS.busy
          : !cost.affordable
            ? STORY_TEXTS.notEnoughCredits(cost.total, balance)
            : !can
              ? STORY_TEXTS.busy
              : null;

  return (
    <Stack gap="sm" component="section" aria-labelledby="story-sound-heading">
      <Group gap="sm" align="center">
        <Title order={3} size="h4" id="story-sound-heading">
          {TEXTS.audioHeading}
        </Title>
        {audio.kind !== 'none' && <PartBadge state={state} hint={STORY_TEXTS.staleVideoHint} />}
      </Group>
      <Radio.Group
        label={TEXTS.audioKind}
        value={audio.kind}
        onChange={(value) =>
          story.send({
            type: 'audio.change',
            changes: { kind: value as StoryAudioKind, ...(value === 'speech' && !audio.voice ? { voice: DEFAULT_VOICE } : {}) },
          })
        }
      >
        <Group gap="lg" mt={4}>
          {STORY_AUDIO_KINDS.map((kind) => (
            <Radio key={kind.value} value={kind.value} label={kind.label} disabled={!editable} />
          ))}
        </Group>
      </Radio.Group>
      {audio.kind === 'none' ? (
        <Text size="sm" c="dimmed">
          {TEXTS.noSound}
        </Text>
      ) : (
        <>
          <Textarea
            label={audio.kind === 'speech' ? TEXTS.narration : TEXTS.music}
            value={audio.text}
            rows={2}
            maxLength={STORY_AUDIO_TEXT_MAX}
            disabled={!editable}
            onChange={(event) => story.send({ type: 'audio.change', changes: { text: event.currentTarget.value } })}
          />
          {audio.kind === 'speech' && (
            <Select
              label={TEXTS.voice}
              data={VOICE_DATA}
              value={audio.voice || DEFAULT_VOICE}
              allowDeselect={false}
              disabled={!editable}
              onChange={(value) => value && story.send({ type: 'audio.change', changes: { voice: value } })}
              maw={240}
            />
          )}
          {track?.url ? (
            <audio controls src={track.url} aria-label={TEXTS.soundLabel} />
          ) : track && (track.status === 'queued' || track.status === 'running') ? (
            <Progress value={track.progress} aria-label={STORY_TEXTS.progress(TEXTS.soundLabel)} animated />
          ) : track?.error ? (
            <Text size="sm" c="red">
              {track.error}
            </Text>
          ) : null}
          <PaidAction
            id="story-sound"
            cost={`${STORY_TEXTS.soundCost(cost.total)}${STORY_TEXTS.balance(balance)}`}
            label={TEXTS.makeSound}
            reason={reason}
            loading={view.busy === 'generating' && view.generatingPart === 'audio'}
            onRun={() => story.send({ type: 'audio.generate' })}
            cancel={
              view.running.audio > 0
                ? { label: STORY_TEXTS.cancel, busy: view.busy === 'cancelling', onCancel: () => story.send({ type: 'part.cancel', part: 'audio' }) }
                : null
            }
          />
        </>
      )}
    </Stack>
  );
}

/** The final film: its player and "Download MP4" once joined, its progress while it is joined, or why it failed. */
function FilmPlayer({ prominent = false }: { prominent?: boolean }) {
  const film = StoryActorContext.useSelector(selectFinalFilm, shallowEqual);
  const view = useStoryView();
  if (film.state === 'none') {
    return prominent ? null : (
      <Text size="sm" c="dimmed">
        {TEXTS.noFilm}
      </Text>
    );
  }
  if (film.state === 'running') {
    return (
      <Stack gap={4}>
        <Text size="sm" role="status">
          {TEXTS.joining}
        </Text>
        <Progress value={film.progress} aria-label={STORY_TEXTS.progress(TEXTS.filmLabel)} animated />
      </Stack>
    );
  }
  if (film.state === 'failed' || !film.url) {
    return (
      <Text size="sm" c="red" role="alert">
        {TEXTS.filmFailed(film.error)}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {film.state === 'stale' && (
        <Text size="sm" c="yellow.8">
          {TEXTS.filmStale}
        </Text>
      )}
      <video
        controls
        preload="metadata"
        src={film.url}
        poster={film.posterUrl ?? undefined}
        aria-label={TEXTS.filmLabel}
        style={{ width: '100%', maxHeight: prominent ? '70vh' : 420, borderRadius: 8, background: 'black', aspectRatio: cssRatio(view?.aspectRatio ?? '16:9') }}
      />
      <Group>
        <Anchor href={film.url} download={`${view?.title || 'story'}.mp4`} size="sm">
          {TEXTS.download}
        </Anchor>
      </Group>
    </Stack>
  );
}

/** "Make the film": joins the videos in scene order with the sound; the reason it cannot yet is shown beside it. */
function FilmSection() {
  const story = StoryActorContext.useActorRef();
  const view = useStoryView();
  const problem = StoryActorContext.useSelector(selectConcatProblem);
  const can = StoryActorContext.useSelector((snapshot) => snapshot.can({ type: 'concat.start' }));
  const wizardState = StoryActorContext.useSelector(selectWizardState);
  if (!view) return null;
  const reason = problem ?? (view.busy !== null || !can ? STORY_TEXTS.busy : null);
  return (
    <Stack gap="sm" component="section" aria-labelledby="story-film-heading">
      <Title order={3} size="h4" id="story-film-heading">
        {TEXTS.filmHeading}
      </Title>
      <PaidAction
        id="story-film"
        cost={null}
        label={TEXTS.join}
        reason={reason}
        loading={view.busy === 'joining'}
        onRun={() => story.send({ type: 'concat.start' })}
        cancel={
          view.running.concat > 0
            ? { label: STORY_TEXTS.cancel, busy: view.busy === 'cancelling', onCancel: () => story.send({ type: 'part.cancel', part: 'concat' }) }
            : null
        }
      />
      {/* When the story is done the film is shown large at the top of the page instead. */}
      {wizardState !== 'done' && <FilmPlayer />}
    </Stack>
  );
}

/** The scriptboard: the scenes' videos on a timeline, the sound under them, and the film they make. */
export function ScriptboardStep() {
  const story = StoryActorContext.useActorRef();
  const view = useStoryView();
  const paid = usePaidPart('videos');
  if (!view) return null;
  const { board, states } = view;
  return (
    <Stack gap="lg" component="section" aria-labelledby="story-scriptboard-heading">
      <Stack gap={4}>
        <Title order={2} size="h3" id="story-scriptboard-heading">
          {TEXTS.heading}
        </Title>
        <Text size="sm" c="dimmed">
          {TEXTS.intro}
        </Text>
      </Stack>
      <Select
        label={TEXTS.videoModel}
        data={MODEL_DATA}
        value={board.video_model}
        allowDeselect={false}
        disabled={view.busy !== null}
        onChange={(value) => value && story.send({ type: 'board.settings', changes: { video_model: value } })}
        maw={360}
      />
      <ScrollArea type="auto" offsetScrollbars>
        <Group component="ol" aria-label={TEXTS.timeline} gap="xs" wrap="nowrap" align="stretch" p={0} m={0}>
          {board.scenes.map((scene, index) => (
            <TimelineClip key={scene.id} scene={scene} number={index + 1} state={states.sceneVideos[scene.id] ?? 'missing'} aspectRatio={view.aspectRatio} />
          ))}
        </Group>
      </ScrollArea>
      <PaidAction id="story-videos" cost={paid.cost} label={TEXTS.make} reason={paid.reason} loading={paid.loading} onRun={paid.run} cancel={paid.cancel} />
      <SoundSection />
      <FilmSection />
      <ExportSection />
    </Stack>
  );
}

/** The done state's banner: the film first, large. */
export function FilmDone() {
  return (
    <Alert color="teal" title={STORY_TEXTS.done.heading} role="status">
      <Stack gap="sm">
        <Text size="sm">{STORY_TEXTS.done.text}</Text>
        <FilmPlayer prominent />
      </Stack>
    </Alert>
  );
}
