import { Select, type SelectProps } from '@mantine/core';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import type { ModelOption } from '@/config/asset-tools';
import { TOOL_TEXTS } from '@/config/job-texts';
import { VOICES } from '@/config/voices';

interface FormSelectProps<T extends FieldValues> extends Omit<SelectProps, 'value' | 'onChange' | 'name' | 'allowDeselect'> {
  control: Control<T>;
  /** A field holding the chosen option's value as a string ('' while none is chosen). */
  name: FieldPath<T>;
}

/**
 * A Mantine Select bound to a react-hook-form field, as every form of Kinora's uses one: a choice
 * once made stays made (no deselecting back to nothing), an empty field shows no choice, and the
 * field's own error shows under it unless the caller words one.
 */
export function FormSelect<T extends FieldValues>({ control, name, error, ...props }: FormSelectProps<T>) {
  const { field, fieldState } = useController({ control, name });
  const value = typeof field.value === 'string' && field.value !== '' ? field.value : null;
  return (
    <Select
      {...props}
      ref={field.ref}
      value={value}
      onChange={(next) => field.onChange(next ?? field.value)}
      onBlur={field.onBlur}
      allowDeselect={false}
      error={error ?? fieldState.error?.message}
    />
  );
}

/** The voice of speech (text-to-speech, lip sync): the chosen model's own voices, else the presets. */
export function VoiceSelect<T extends FieldValues>({ control, name, model }: { control: Control<T>; name: FieldPath<T>; model: ModelOption | undefined }) {
  const voices = model?.available_voices?.length ? model.available_voices : VOICES;
  return <FormSelect control={control} name={name} label={TOOL_TEXTS.voice} data={voices.map((voice) => ({ value: voice.value, label: voice.label }))} searchable />;
}
