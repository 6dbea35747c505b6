import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from './stack';
import { totp } from '../../helpers/totp';

export const PASSWORD = 'e2e-secret-1';

export type MailKind = 'Sign-up confirmation' | 'E-mail verification' | 'Password reset';

/** A new address per call, so a re-run on the same data never meets an old account. */
export function freshEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}

/** The code the emulator "sent" to `email`, as /local/mailbox lists it; null when there is none. */
export async function mailboxCode(request: APIRequestContext, email: string, kind: MailKind): Promise<string | null> {
  const html = await (await request.get('/local/mailbox')).text();
  for (const row of html.split('<tr>')) {
    const cells = [...row.matchAll(/<td>(.*?)<\/td>/g)].map((match) => match[1] ?? '');
    if (cells[1] === email && cells[3] === kind) return /<strong>(.*?)<\/strong>/.exec(cells[2] ?? '')?.[1] ?? null;
  }
  return null;
}

/**
 * The code the mailbox lists for `email`, waited for: the emulator rewrites its pool file whole and
 * unsynchronised after answering, so while other tests change the pool at the same time the file
 * read just after the answer can be an older one, without the new code yet.
 */
async function awaitMailboxCode(request: APIRequestContext, email: string, kind: MailKind): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(async () => (code = await mailboxCode(request, email, kind)), { message: `a ${kind} code for ${email} on /local/mailbox`, timeout: 15_000 })
    .not.toBeNull();
  return code ?? '';
}

/** Reads the code from the mailbox page as a person would, in another tab; waits until it differs from `not`. */
export async function readCodeFromMailbox(page: Page, email: string, kind: MailKind, not: string | null = null): Promise<string> {
  const mailbox = await page.context().newPage();
  try {
    let code: string | null = null;
    await expect
      .poll(
        async () => {
          await mailbox.goto('/local/mailbox');
          const row = mailbox.getByRole('row').filter({ hasText: email }).filter({ hasText: kind });
          code = (await row.count()) > 0 ? await row.first().getByRole('cell').nth(2).innerText() : null;
          return code !== null && code !== not;
        },
        { message: `a ${kind} code for ${email} on /local/mailbox`, timeout: 15_000 },
      )
      .toBe(true);
    return (code as string | null) ?? '';
  } finally {
    await mailbox.close();
  }
}

async function appClientId(dataDir = E2E_DATA_DIR): Promise<string> {
  const file = path.join(dataDir, 'cognito', '.cognito', 'db', 'clients.json');
  const { Clients } = JSON.parse(await readFile(file, 'utf8')) as { Clients: Record<string, { ClientId: string; ClientName: string }> };
  const client = Object.values(Clients).find((entry) => entry.ClientName === 'kinora-web');
  if (!client) throw new Error(`no kinora-web app client in ${file}`);
  return client.ClientId;
}

async function cognito<T = Record<string, unknown>>(request: APIRequestContext, action: string, body: Record<string, unknown>): Promise<T> {
  const response = await request.post('/cognito/', {
    headers: { 'Content-Type': 'application/x-amz-json-1.1', 'X-Amz-Target': `AWSCognitoIdentityProviderService.${action}` },
    data: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok()) throw new Error(`${action} answered ${response.status()}: ${text}`);
  return JSON.parse(text) as T;
}

/**
 * Set-up for the tests that are not about signing up: an account made through the same /cognito
 * front the app uses (sign-up, the mailbox's code, confirmation, e-mail verification, a handle).
 */
export async function createAccount(
  request: APIRequestContext,
  options: { prefix: string; handle?: string; /** Another stack's data folder (a test that starts its own stack). */ dataDir?: string },
): Promise<{ email: string; handle?: string }> {
  const email = freshEmail(options.prefix);
  const ClientId = await appClientId(options.dataDir);
  await cognito(request, 'SignUp', { ClientId, Username: email, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: email }] });
  const signUpCode = await awaitMailboxCode(request, email, 'Sign-up confirmation');
  await cognito(request, 'ConfirmSignUp', { ClientId, Username: email, ConfirmationCode: signUpCode });
  const { AuthenticationResult } = await cognito<{ AuthenticationResult: { AccessToken: string } }>(request, 'InitiateAuth', {
    ClientId,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD },
  });
  const AccessToken = AuthenticationResult.AccessToken;
  await cognito(request, 'GetUserAttributeVerificationCode', { AccessToken, AttributeName: 'email' });
  const verifyCode = await awaitMailboxCode(request, email, 'E-mail verification');
  await cognito(request, 'VerifyUserAttribute', { AccessToken, AttributeName: 'email', Code: verifyCode });
  if (options.handle) {
    await cognito(request, 'UpdateUserAttributes', { AccessToken, UserAttributes: [{ Name: 'preferred_username', Value: options.handle }] });
  }
  return { email, handle: options.handle };
}

/** A handle nobody has: letters, digits and "-" (3–30 characters). */
export function freshHandle(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.slice(0, 30);
}

/**
 * Set-up for the authenticator-app sign-in: the person has already paired an app (what the
 * server test tests/server/auth/totp-sign-in.test.ts does through the same /cognito front):
 * AssociateSoftwareToken, VerifySoftwareToken with a computed code, then TOTP as the preferred MFA.
 * Returns the app's secret, from which the test computes the codes the app would show.
 */
export async function enableAuthenticatorApp(request: APIRequestContext, email: string, password = PASSWORD): Promise<string> {
  const ClientId = await appClientId();
  const { AuthenticationResult } = await cognito<{ AuthenticationResult: { AccessToken: string } }>(request, 'InitiateAuth', {
    ClientId,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  const AccessToken = AuthenticationResult.AccessToken;
  const { SecretCode } = await cognito<{ SecretCode: string }>(request, 'AssociateSoftwareToken', { AccessToken });
  const verified = await cognito<{ Status?: string }>(request, 'VerifySoftwareToken', {
    AccessToken,
    UserCode: totp(SecretCode),
    FriendlyDeviceName: 'e2e phone',
  });
  if (verified.Status !== 'SUCCESS') throw new Error(`VerifySoftwareToken answered ${JSON.stringify(verified)}`);
  await cognito(request, 'SetUserMFAPreference', { AccessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } });
  return SecretCode;
}
