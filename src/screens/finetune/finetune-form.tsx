import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Paper, Radio, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { UploadField } from '@/components/media/upload-field';
import { optionsForTool } from '@/config/asset-tools';
import { FINETUNE_KIND_LIST, FINETUNE_KINDS, FINETUNE_TOOL, type FinetuneKind, type FinetuneKindInfo } from '@/config/finetune';
import { FINETUNE_TEXTS } from '@/config/finetune-texts';
import { MODEL_COSTS } from '@/config/model-costs';
import { ROUTES } from '@/config/routes';
import { GenerateBar } from '@/components/jobs/generate-bar';
import { useHandOver } from '@/components/jobs/use-hand-over';
import { useSubmitBlocker } from '@/components/session/use-submit-blocker';
import { selectAssetTools } from '@/machines/app-config/app-config.selectors';
import { FINETUNE_ENDPOINT } from '@/machines/finetunes/finetunes.machine';
import {
  COUNT_ERROR_KEY,
  countText,
  defaultFinetuneValues,
  finetuneFields,
  finetuneFormSchema,
  maximumPlaces,
  minimumPlaces,
  pairInputKey,
  pairOutputKey,
  type FinetuneFormValues,
  type FinetuneSlots,
} from '@/screens/finetune/finetune-form-rules';
import { ToolHelpButton } from '@/screens/tools/tool-help-button';

/** SPEC §2.10 help topics of LoRA Finetune: 40 "LoRA Finetune" (beside the title) and 32 "FineTune Options" (beside the kinds). */
export const FINETUNE_HELP_TOPICS = { page: 40, options: 32 } as const;


/** The kind's line under its name: SPEC §5 picture rule and §9 training time. */
const kindRule = (kind: FinetuneKindInfo): string =>
  kind.pairs
    ? FINETUNE_TEXTS.kindRulePairs(kind.pairs.min, kind.pairs.max, kind.trainingMinutes)
    : FINETUNE_TEXTS.kindRuleImages(kind.images?.min ?? 0, kind.images?.max ?? 0, kind.trainingMinutes);

const placeIds = (prefix: string, from: number, count: number): string[] =>
  Array.from({ length: count }, (_, index) => `${prefix}${from + index}`);

/**
 * The LoRA Finetune form: the kind (with its picture rule, training time and cost), the model's
 * name and trigger word, the pictures (Flux, Flux Pro: a list; Flux Kontext: input/output pairs and
 * a prompt), the cost against the balance, and "Generate", which hands the training to the jobs
 * registry.
 */
export function FinetuneForm() {
  const jobs = JobsActorContext.useActorRef();
  const assetTools = AppConfigActorContext.useSelector(selectAssetTools);
  const kindCosts = useMemo(() => {
    const configured = optionsForTool(assetTools, 'finetune');
    return new Map(
      FINETUNE_KIND_LIST.map((kind) => [
        kind.value,
        configured.find((option) => option.value === kind.value)?.required_credits ?? MODEL_COSTS[kind.value],
      ]),
    );
  }, [assetTools]);

  // The picture places shown, by stable id: removing one removes exactly that one (its upload too).
  const nextId = useRef(1);
  const newIds = (prefix: string, count: number): string[] => {
    const ids = placeIds(`${prefix}-added`, nextId.current, count);
    nextId.current += count;
    return ids;
  };
  const [slots, setSlots] = useState<FinetuneSlots>(() => ({
    images: placeIds('picture', 1, minimumPlaces(FINETUNE_KINDS.FluxFinetune)),
    pairs: placeIds('pair', 1, minimumPlaces(FINETUNE_KINDS.FluxKontextFinetune)),
  }));

  // Generate is handed over once (see useHandOver).
  const { phase: sendPhase, handOver, markSent } = useHandOver();
  const picturesHeadingId = useId();

  // The schema follows the places shown, so it is built when the values are checked.
  const resolver: Resolver<FinetuneFormValues> = (values, context, options) =>
    zodResolver(finetuneFormSchema(slots))(values, context, options);
  const { control, register, handleSubmit, setValue, trigger, watch, formState } = useForm<FinetuneFormValues>({
    resolver,
    defaultValues: defaultFinetuneValues(),
  });
  const kindValue = watch('kind');
  const kind = FINETUNE_KINDS[kindValue];
  const pictures = watch('pictures');
  const cost = kindCosts.get(kind.value) ?? MODEL_COSTS[kind.value];
  const blocker = useSubmitBlocker(cost);
  const pictureErrors = formState.errors.pictures;

  // After a first "Generate", every picture change checks the pictures again as a whole: the count
  // and pair rules span them all.
  const setPicture = (key: string, url: string | null) => {
    setValue(`pictures.${key}`, url ?? '');
    if (formState.isSubmitted) void trigger('pictures');
  };

  /** A kind starts with at least its minimum of places; the old kind's messages go. */
  const chooseKind = (value: FinetuneKind) => {
    const chosen = FINETUNE_KINDS[value];
    if (formState.isSubmitted) void trigger();
    const list = chosen.pairs ? slots.pairs : slots.images;
    const missing = minimumPlaces(chosen) - list.length;
    if (missing <= 0) return;
    const added = newIds(chosen.pairs ? 'pair' : 'picture', missing);
    setSlots(chosen.pairs ? { ...slots, pairs: [...list, ...added] } : { ...slots, images: [...list, ...added] });
  };

  const addPlace = () => {
    setSlots(
      kind.pairs
        ? { ...slots, pairs: [...slots.pairs, ...newIds('pair', 1)] }
        : { ...slots, images: [...slots.images, ...newIds('picture', 1)] },
    );
  };

  /** Removes exactly this picture: its place, its upload and its value; the others keep theirs. */
  const removeImage = (key: string) => {
    setPicture(key, null);
    setSlots({ ...slots, images: slots.images.filter((kept) => kept !== key) });
  };

  const removePair = (id: string) => {
    setPicture(pairInputKey(id), null);
    setPicture(pairOutputKey(id), null);
    setSlots({ ...slots, pairs: slots.pairs.filter((kept) => kept !== id) });
  };

  const submit = handleSubmit((values) => {
    const chosen = FINETUNE_KINDS[values.kind];
    markSent();
    jobs.send({
      type: 'jobs.submit',
      request: {
        tool: FINETUNE_TOOL,
        toolTitle: FINETUNE_TEXTS.title,
        option: chosen.value,
        optionLabel: FINETUNE_TEXTS.jobLabel(values.name.trim(), chosen.label),
        endpoint: FINETUNE_ENDPOINT,
        cost: kindCosts.get(chosen.value) ?? MODEL_COSTS[chosen.value],
        fields: finetuneFields(slots, values),
      },
    });
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => handOver(event, submit);

  const places = kind.pairs ? slots.pairs.length : slots.images.length;
  const canAdd = places < maximumPlaces(kind);
  const countError = pictureErrors?.[COUNT_ERROR_KEY]?.message;

  return (
    <Paper withBorder p="lg" radius="md" component="form" noValidate onSubmit={onSubmit} aria-label={`${FINETUNE_TEXTS.title} form`}>
      <Stack gap="md">
        {/* The options' help sits beside the options, the page's beside the title: never two bare "?" side by side. */}
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Controller
            control={control}
            name="kind"
            render={({ field }) => (
              <Radio.Group
                label={FINETUNE_TEXTS.kind}
                value={field.value}
                onChange={(value) => {
                  field.onChange(value);
                  chooseKind(value as FinetuneKind);
                }}
                required
              >
                <Stack gap="xs" mt={4}>
                  {FINETUNE_KIND_LIST.map((candidate) => (
                    <Radio
                      key={candidate.value}
                      value={candidate.value}
                      label={FINETUNE_TEXTS.kindOption(candidate.label, kindCosts.get(candidate.value) ?? MODEL_COSTS[candidate.value])}
                      description={kindRule(candidate)}
                    />
                  ))}
                </Stack>
              </Radio.Group>
            )}
          />
          <ToolHelpButton topicIndex={FINETUNE_HELP_TOPICS.options} />
        </Group>

        <TextInput
          label={FINETUNE_TEXTS.name}
          description={FINETUNE_TEXTS.nameDescription}
          required
          error={formState.errors.name?.message}
          {...register('name')}
        />
        <TextInput
          label={FINETUNE_TEXTS.triggerWord}
          description={FINETUNE_TEXTS.triggerWordDescription}
          error={formState.errors.trigger_word?.message}
          {...register('trigger_word')}
        />

        <Stack gap="sm" role="group" aria-labelledby={picturesHeadingId}>
          <Group justify="space-between" align="baseline">
            <Title order={2} size="h4" id={picturesHeadingId}>
              {kind.pairs ? FINETUNE_TEXTS.pairsHeading : FINETUNE_TEXTS.picturesHeading}
            </Title>
            <Text size="sm" aria-live="polite" data-testid="finetune-count">
              {countText(kind, slots, pictures ?? {})}
            </Text>
          </Group>
          {kind.pairs && (
            <Text size="sm" c="dimmed">
              {FINETUNE_TEXTS.pairsDescription}
            </Text>
          )}

          {kind.pairs
            ? slots.pairs.map((id, index) => (
                <Paper key={id} withBorder p="sm" radius="md">
                  <Stack gap="xs">
                    <Group grow align="flex-start">
                      <UploadField
                        kind="image"
                        label={FINETUNE_TEXTS.pairInput(index + 1)}
                        error={pictureErrors?.[pairInputKey(id)]?.message}
                        onChange={(url) => setPicture(pairInputKey(id), url)}
                        uploadPagePath={ROUTES.aiImage.uploadImage}
                      />
                      <UploadField
                        kind="image"
                        label={FINETUNE_TEXTS.pairOutput(index + 1)}
                        error={pictureErrors?.[pairOutputKey(id)]?.message}
                        onChange={(url) => setPicture(pairOutputKey(id), url)}
                        uploadPagePath={ROUTES.aiImage.uploadImage}
                      />
                    </Group>
                    {slots.pairs.length > 1 && (
                      <Group>
                        <Button variant="subtle" size="compact-xs" onClick={() => removePair(id)}>
                          {FINETUNE_TEXTS.removePair(index + 1)}
                        </Button>
                      </Group>
                    )}
                  </Stack>
                </Paper>
              ))
            : slots.images.map((key, index) => (
                <Stack key={key} gap={4}>
                  <UploadField
                    kind="image"
                    label={FINETUNE_TEXTS.picture(index + 1)}
                    onChange={(url) => setPicture(key, url)}
                    uploadPagePath={ROUTES.aiImage.uploadImage}
                  />
                  {slots.images.length > 1 && (
                    <Group>
                      <Button variant="subtle" size="compact-xs" onClick={() => removeImage(key)}>
                        {FINETUNE_TEXTS.removePicture(index + 1)}
                      </Button>
                    </Group>
                  )}
                </Stack>
              ))}

          <Group>
            <Button variant="light" size="xs" onClick={addPlace} disabled={!canAdd}>
              {kind.pairs ? FINETUNE_TEXTS.addPair : FINETUNE_TEXTS.addPicture}
            </Button>
          </Group>
          {countError && (
            <Text size="sm" c="red" role="alert">
              {countError}
            </Text>
          )}
        </Stack>

        {kind.promptRequired && (
          <Textarea
            label={FINETUNE_TEXTS.prompt}
            description={FINETUNE_TEXTS.promptDescription}
            required
            rows={3}
            error={formState.errors.prompt?.message}
            {...register('prompt')}
          />
        )}

        <GenerateBar
          costTestId="finetune-cost"
          cost={FINETUNE_TEXTS.cost(cost, blocker.balance)}
          blocker={blocker}
          phase={sendPhase}
          label={FINETUNE_TEXTS.generate}
          submitted={FINETUNE_TEXTS.submitted}
        />
      </Stack>
    </Paper>
  );
}
