import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, NumberInput, Paper, Select, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { UploadField } from '@/components/media/upload-field';
import { PromptField } from '@/components/prompt/prompt-field';
import { SessionActorContext } from '@/components/session/session-context';
import { optionsForTool } from '@/config/asset-tools';
import type { GenerationToolSpec } from '@/config/generation-tools';
import { TOOL_TEXTS } from '@/config/job-texts';
import { SUBMIT_COOLDOWN_MS } from '@/config/limits';
import { ROUTES } from '@/config/routes';
import { VOICES } from '@/config/voices';
import { canAfford } from '@/lib/credit-check';
import { selectAssetTools } from '@/machines/app-config/app-config.selectors';
import { selectOptionalCreditBalance, selectOptionalCreditsLoading } from '@/machines/session/credits.selectors';
import { selectCreditsRef, selectCurrentUser, selectIsSignedIn } from '@/machines/session/session.selectors';
import { FaceOrderInput } from '@/screens/tools/face-order-input';
import {
  defaultFormValues,
  generationFields,
  generationFormSchema,
  growableField,
  pictureSlots,
  promptHelperPurpose,
  promptNeed,
  type GenerationFormValues,
  type PictureSlot,
} from '@/screens/tools/generation-form';

/** Why "Generate" cannot be pressed now, or null when it can. */
function useSubmitBlocker(cost: number | null): { reason: string | null; signInLink: boolean; balance: number | null } {
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const user = SessionActorContext.useSelector(selectCurrentUser);
  const creditsRef = SessionActorContext.useSelector(selectCreditsRef);
  const balance = useSelector(creditsRef, selectOptionalCreditBalance);
  const balanceLoading = useSelector(creditsRef, selectOptionalCreditsLoading);
  if (!signedIn) return { reason: TOOL_TEXTS.signInToGenerate, signInLink: true, balance };
  if (cost === null) return { reason: TOOL_TEXTS.noModel, signInLink: false, balance };
  // SPEC §6: the same rule the job machine applies before it sends anything.
  if (!canAfford({ user, cost, credit: balance })) {
    // Until the balance is known the rule counts it as 0; say it is loading rather than short.
    const reason = balance === null && balanceLoading ? TOOL_TEXTS.balanceLoading : TOOL_TEXTS.notEnoughCredits(cost, balance);
    return { reason, signInLink: false, balance };
  }
  return { reason: null, signInLink: false, balance };
}

/**
 * The form of a generation tool (issue 4 item 8): the model (SPEC §3 options of this tool from the
 * app configuration, with their cost), the inputs that model accepts, the cost against the balance,
 * and "Generate", which hands the job to the jobs registry.
 */
export function GenerationToolForm({ spec }: { spec: GenerationToolSpec }) {
  const jobs = JobsActorContext.useActorRef();
  const assetTools = AppConfigActorContext.useSelector(selectAssetTools);
  const options = useMemo(() => optionsForTool(assetTools, spec.slug), [assetTools, spec.slug]);
  // The ids of the picture slots added beyond a repeated field's minimum, in order.
  const [extraPictures, setExtraPictures] = useState<Record<string, string[]>>({});
  const nextSlotId = useRef(1);
  // Generate is handed over once: pressed again while the form is checked and the job handed to
  // the registry, or just after (SUBMIT_COOLDOWN_MS), it does nothing.
  const [sendPhase, setSendPhase] = useState<'idle' | 'sending' | 'sent'>('idle');
  const handingOver = useRef(false);

  // The schema follows the chosen model and the picture slots, so it is built from the values
  // being checked (react-hook-form takes the latest resolver on every render).
  const resolver: Resolver<GenerationFormValues> = (values, context, resolverOptions) => {
    const chosen = options.find((candidate) => candidate.value === values.option);
    const schema = generationFormSchema(spec, chosen, pictureSlots(spec, chosen, extraPictures));
    return zodResolver(schema)(values, context, resolverOptions);
  };
  const { control, register, handleSubmit, setValue, getValues, watch, formState } = useForm<GenerationFormValues>({
    resolver,
    defaultValues: defaultFormValues(spec, options),
  });
  const optionValue = watch('option');
  const model = options.find((candidate) => candidate.value === optionValue);
  const slots = pictureSlots(spec, model, extraPictures);
  const need = promptNeed(spec, model);
  const pictures = watch('pictures');
  const firstPicture = slots.map((slot) => pictures?.[slot.key]).find((url) => Boolean(url)) ?? null;
  const growable = growableField(spec, slots);
  const { reason, signInLink, balance } = useSubmitBlocker(model ? model.required_credits : null);

  // The configuration can arrive after the first render (defaults first, SPEC §3), or drop the
  // chosen model: the first model of the tool is then chosen.
  useEffect(() => {
    if (options.length > 0 && !options.some((candidate) => candidate.value === optionValue)) {
      setValue('option', options[0]?.value ?? '');
    }
  }, [options, optionValue, setValue]);

  useEffect(() => {
    if (sendPhase !== 'sent') return;
    const timer = window.setTimeout(() => setSendPhase('idle'), SUBMIT_COOLDOWN_MS);
    return () => window.clearTimeout(timer);
  }, [sendPhase]);

  const submit = handleSubmit((values) => {
    if (!model) return;
    setSendPhase('sent');
    jobs.send({
      type: 'jobs.submit',
      request: {
        tool: spec.slug,
        toolTitle: spec.title,
        option: model.value,
        optionLabel: model.label,
        endpoint: spec.endpoint,
        cost: model.required_credits,
        fields: generationFields(spec, model, slots, values),
      },
    });
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (handingOver.current || sendPhase !== 'idle') return;
    handingOver.current = true;
    setSendPhase('sending');
    void submit(event).finally(() => {
      handingOver.current = false;
      // Refused by the form (a missing prompt or picture): Generate is available again at once.
      setSendPhase((phase) => (phase === 'sending' ? 'idle' : phase));
    });
  };

  const addPicture = (field: string) => {
    const id = `added${nextSlotId.current}`;
    nextSlotId.current += 1;
    const position = slots.filter((slot) => slot.field === field).length;
    // A new face is numbered after the ones before it (face 1 → 0, face 2 → 1, …).
    if (spec.orderIndices) setValue(`order_indices.${field}-${id}`, Math.max(0, position - 1));
    setExtraPictures((extra) => ({ ...extra, [field]: [...(extra[field] ?? []), id] }));
  };

  /** Removes exactly this slot: its id, its value; the other slots keep theirs. */
  const removePicture = (slot: PictureSlot) => {
    const id = slot.key.slice(slot.field.length + 1);
    setPicture(slot.key, null);
    setExtraPictures((extra) => ({ ...extra, [slot.field]: (extra[slot.field] ?? []).filter((kept) => kept !== id) }));
  };

  const voices = model?.available_voices?.length ? model.available_voices : VOICES;
  const setPicture = (key: string, url: string | null) =>
    setValue(`pictures.${key}`, url ?? '', { shouldValidate: formState.isSubmitted });

  return (
    <Paper withBorder p="lg" radius="md" component="form" noValidate onSubmit={onSubmit} aria-label={`${spec.title} form`}>
      <Stack gap="md">
        <Controller
          control={control}
          name="option"
          render={({ field, fieldState }) => (
            <Select
              label={TOOL_TEXTS.model}
              data={options.map((candidate) => ({
                value: candidate.value,
                label: TOOL_TEXTS.modelOption(candidate.label, candidate.required_credits),
              }))}
              value={field.value || null}
              onChange={(value) => field.onChange(value ?? '')}
              onBlur={field.onBlur}
              allowDeselect={false}
              error={fieldState.error?.message}
              required
            />
          )}
        />

        {slots.map((slot) => (
          <Stack key={slot.key} gap={4}>
            <UploadField
              kind="image"
              label={slot.label}
              required={slot.required}
              error={formState.errors.pictures?.[slot.key]?.message}
              onChange={(url) => setPicture(slot.key, url)}
              uploadPagePath={ROUTES.aiImage.uploadImage}
            />
            {slot.face && <FaceOrderInput control={control} slotKey={slot.key} label={slot.label} />}
            {slot.removable && (
              <Group>
                <Button
                  variant="subtle"
                  size="compact-xs"
                  onClick={() => removePicture(slot)}
                >
                  {TOOL_TEXTS.removePicture(slot.label)}
                </Button>
              </Group>
            )}
          </Stack>
        ))}
        {growable && (
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() => addPicture(growable.field)}
            >
              {TOOL_TEXTS.addPictureButton}
            </Button>
          </Group>
        )}

        {need !== 'hidden' && (
          <PromptField
            label={spec.promptLabel}
            required={need === 'required'}
            error={formState.errors.prompt?.message}
            field={register('prompt')}
            purpose={promptHelperPurpose(spec)}
            imageUrl={firstPicture}
            currentPrompt={() => getValues('prompt')}
            onSuggested={(prompt) => setValue('prompt', prompt, { shouldValidate: formState.isSubmitted, shouldDirty: true })}
          />
        )}

        {spec.voice && (
          <Controller
            control={control}
            name="voice"
            render={({ field }) => (
              <Select
                label={TOOL_TEXTS.voice}
                data={voices.map((voice) => ({ value: voice.value, label: voice.label }))}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                allowDeselect={false}
                searchable
              />
            )}
          />
        )}

        {spec.duration && (
          <Controller
            control={control}
            name="duration"
            render={({ field, fieldState }) => (
              <NumberInput
                label={TOOL_TEXTS.duration}
                min={spec.duration?.minSeconds}
                max={spec.duration?.maxSeconds}
                allowDecimal={false}
                value={field.value}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : Number(value) || 0)}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
        )}

        {spec.aspectRatios && (
          <Controller
            control={control}
            name="aspect_ratio"
            render={({ field }) => (
              <Select
                label={TOOL_TEXTS.aspectRatio}
                data={[...(spec.aspectRatios ?? [])]}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                allowDeselect={false}
              />
            )}
          />
        )}

        <Stack gap={4}>
          {model && (
            <Text size="sm" aria-live="polite" data-testid="generation-cost">
              {TOOL_TEXTS.cost(model.required_credits, balance)}
            </Text>
          )}
          <Group gap="sm" align="center">
            <Button
              type="submit"
              disabled={reason !== null || sendPhase !== 'idle'}
              loading={sendPhase === 'sending'}
              aria-describedby={reason ? 'generate-blocked-reason' : undefined}
            >
              {TOOL_TEXTS.generate}
            </Button>
            {sendPhase === 'sent' && reason === null && (
              <Text size="sm" c="teal" role="status">
                {TOOL_TEXTS.submitted}
              </Text>
            )}
            {reason && (
              <Text size="sm" c="dimmed" id="generate-blocked-reason">
                {signInLink ? (
                  <Anchor component={Link} to={ROUTES.authentication}>
                    {reason}
                  </Anchor>
                ) : (
                  reason
                )}
              </Text>
            )}
          </Group>
        </Stack>
      </Stack>
    </Paper>
  );
}
