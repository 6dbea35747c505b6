import { Group, Text, Textarea } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { PromptHelperMode } from '@/config/enums';
import { PromptHelperMenu } from '@/components/prompt/prompt-helper-menu';
import { promptHelperMachine, type PromptPurpose } from '@/machines/prompt-helper/prompt-helper.machine';
import { selectPromptHelperBusy, selectPromptHelperError } from '@/machines/prompt-helper/prompt-helper.selectors';
import { inspect } from '@/lib/inspection/hub';

interface PromptFieldProps {
  label: string;
  required: boolean;
  /** The form's message for the prompt (e.g. "Enter a prompt"). */
  error?: string;
  /** react-hook-form's `register('prompt')`. */
  field: UseFormRegisterReturn;
  /** What the prompt is for (POST text/prompt `mode`: image, speech, music, sound…). */
  purpose: PromptPurpose;
  /** The picture given to the tool, if any, for "Guess from picture". */
  imageUrl: string | null;
  /** The prompt as it stands when a helper is picked. */
  currentPrompt: () => string;
  /** A helper's answer replaces the prompt. */
  onSuggested: (prompt: string) => void;
}

/** A prompt with the prompt-helper menu beside it; the helper's error shows under the field. */
export function PromptField({ label, required, error, field, purpose, imageUrl, currentPrompt, onSuggested }: PromptFieldProps) {
  const helper = useActorRef(promptHelperMachine, { inspect });
  const busy = useSelector(helper, selectPromptHelperBusy);
  const helperError = useSelector(helper, selectPromptHelperError);

  const onSuggestedRef = useRef(onSuggested);
  useEffect(() => {
    onSuggestedRef.current = onSuggested;
  });
  useEffect(() => {
    const subscription = helper.on('prompt.suggested', (event) => onSuggestedRef.current(event.prompt));
    return () => subscription.unsubscribe();
  }, [helper]);

  const pick = (option: PromptHelperMode) =>
    helper.send({
      type: 'prompt.help',
      option,
      prompt: currentPrompt(),
      mode: purpose,
      ...(option === 'Image2Prompt' && imageUrl ? { image: { url: imageUrl } } : {}),
    });

  return (
    <div>
      <Group justify="space-between" align="flex-end" wrap="nowrap" gap="xs">
        <Textarea
          {...field}
          label={label}
          required={required}
          error={error}
          rows={3}
          resize="vertical"
          style={{ flex: 1 }}
        />
        <PromptHelperMenu busy={busy} canGuessFromPicture={Boolean(imageUrl)} onPick={pick} />
      </Group>
      {helperError && (
        <Text size="sm" c="red" role="alert" mt={4}>
          {helperError}
        </Text>
      )}
    </div>
  );
}
