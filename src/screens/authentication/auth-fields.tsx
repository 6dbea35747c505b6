import { PasswordInput, TextInput, type PasswordInputProps, type TextInputProps } from '@mantine/core';
import type { Ref } from 'react';
import { PASSWORD_MIN_LENGTH } from '@/config/limits';

type FieldProps<P> = P & { ref?: Ref<HTMLInputElement> };

/** A code from an e-mail, a text message or an authenticator app; spread `register(name)` on it. */
export function CodeInput(props: FieldProps<TextInputProps>) {
  return <TextInput autoComplete="one-time-code" inputMode="numeric" {...props} />;
}

/** A password the person chooses, with SPEC §5's rule beside it; spread `register(name)` on it. */
export function NewPasswordInput(props: FieldProps<PasswordInputProps>) {
  return (
    <PasswordInput
      description={`At least ${PASSWORD_MIN_LENGTH} characters, any you like.`}
      autoComplete="new-password"
      {...props}
    />
  );
}
