import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuthenticationResult } from '../../../server/src/auth/cognito-client.ts';
import { createCognitoClient } from '../../../server/src/auth/cognito-client.ts';
import { startEmulator as startCognitoLocal } from '../../../server/src/auth/emulator.ts';
import { createCognitoIdentity } from '../../../server/src/auth/identity.ts';
import { provision } from '../../../server/src/auth/provision.ts';
import type { IdentityProvider } from '../../../server/src/auth/types.ts';

export interface TestUser {
  accessToken: string;
  idToken: string;
  refreshToken: string;
  sub: string;
}

export interface TestEmulator {
  identity: IdentityProvider;
  /** Base URL of the running cognito-local. */
  endpoint: string;
  userPoolId: string;
  clientId: string;
  /** The folder cognito-local runs in (its pool file is under `.cognito/db`). */
  dataDir: string;
  /** Creates a confirmed user with a verified e-mail and signs it in with USER_PASSWORD_AUTH. */
  createUser(user: { username: string; email: string; password: string; groups?: string[] }): Promise<TestUser>;
  stop(): Promise<void>;
}

/** A real cognito-local on a free port with a temporary data folder, provisioned like `npm start`'s. */
export async function startEmulator(): Promise<TestEmulator> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kinora-cognito-'));
  const emulator = await startCognitoLocal({ dataDir, log: path.join(dataDir, 'cognito-local.log') });
  try {
    const client = createCognitoClient(emulator.url);
    const { userPoolId, clientId } = await provision(client);
    const identity = createCognitoIdentity({
      endpoint: emulator.url,
      userPoolId,
      clientId,
      localMode: true,
      emulatorDir: dataDir,
      // Tests delete and re-create users; a cached e-mail would outlive them.
      userCacheMs: 0,
    });
    return {
      identity,
      endpoint: emulator.url,
      userPoolId,
      clientId,
      dataDir,
      async createUser({ username, email, password, groups = [] }) {
        await provision(client, { groups, accounts: [{ username, email, password, groups, description: 'test user' }] });
        const { AuthenticationResult: tokens } = await client.call<{ AuthenticationResult: AuthenticationResult }>(
          'InitiateAuth',
          { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: username, PASSWORD: password } },
        );
        const { UserAttributes } = await client.call<{ UserAttributes: { Name: string; Value: string }[] }>('AdminGetUser', {
          UserPoolId: userPoolId,
          Username: username,
        });
        const sub = UserAttributes.find((attribute) => attribute.Name === 'sub')?.Value;
        if (!tokens.RefreshToken || !sub) throw new Error(`cognito-local did not sign ${username} in`);
        return { accessToken: tokens.AccessToken, idToken: tokens.IdToken, refreshToken: tokens.RefreshToken, sub };
      },
      async stop() {
        await emulator.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await emulator.stop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
