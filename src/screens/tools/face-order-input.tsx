import { NumberInput } from '@mantine/core';
import { Controller, type Control } from 'react-hook-form';
import { WithHelp } from '@/components/help/help-popover';
import { SETTING_HELP_TOPICS } from '@/config/help-topics';
import { TOOL_TEXTS } from '@/config/job-texts';
import type { GenerationFormValues } from '@/screens/tools/generation-form';

/** Face swap: which face of the target picture this face replaces (SPEC §2.10 "Face Order Index"). */
export function FaceOrderInput({
  control,
  slotKey,
  label,
}: {
  control: Control<GenerationFormValues>;
  slotKey: string;
  label: string;
}) {
  return (
    <Controller
      control={control}
      name={`order_indices.${slotKey}`}
      render={({ field, fieldState }) => (
        <WithHelp topicIndex={SETTING_HELP_TOPICS.faceOrderIndex} grow={false}>
          <NumberInput
            label={`${TOOL_TEXTS.faceOrderIndex} (${label})`}
            description={TOOL_TEXTS.faceOrderHelp}
            min={0}
            allowDecimal={false}
            allowNegative={false}
            value={field.value ?? 0}
            onChange={(value) => field.onChange(typeof value === 'number' ? value : Number(value) || 0)}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
            w={240}
          />
        </WithHelp>
      )}
    />
  );
}
