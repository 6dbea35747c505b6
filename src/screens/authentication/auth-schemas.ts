import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '@/config/limits';

/** SPEC §5: at least 6 characters and no character-class rules. */
export const newPasswordField = z.string().min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`);

export const emailField = z.string().trim().pipe(z.email('Enter a valid e-mail address.'));

/** SPEC §5: a code must not be empty. */
export const codeField = z.string().trim().min(1, 'Enter the code.');

export const signInSchema = z.object({
  email: z.string().trim().min(1, 'Enter your e-mail address.'),
  password: z.string().min(1, 'Enter your password.'),
});

export const signUpSchema = z.object({ email: emailField, password: newPasswordField });

export const emailSchema = z.object({ email: emailField });

export const codeSchema = z.object({ code: codeField });

export const resetPasswordSchema = z.object({ code: codeField, newPassword: newPasswordField });

export const newPasswordSchema = z.object({ password: newPasswordField });
