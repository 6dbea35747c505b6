import { attributeValue, isCognitoError } from './cognito-client.ts';
import type { CognitoClient, CognitoUser } from './cognito-client.ts';
import { DEVELOPER_GROUP } from '../../../src/config/limits.ts';
import type { SeedAccount } from './seed-accounts.ts';

export const DEFAULT_POOL_NAME = 'kinora-local';
export const DEFAULT_CLIENT_NAME = 'kinora-web';

export interface ProvisionOptions {
  poolName?: string;
  clientName?: string;
  groups?: string[];
  accounts?: SeedAccount[];
}

export interface ProvisionedPool {
  userPoolId: string;
  clientId: string;
}

interface UserPoolSummary {
  Id: string;
  Name: string;
  UsernameAttributes?: string[];
}

/**
 * Brings the emulator to the state the app needs: one pool, one app client, the groups and the
 * seed accounts. Every step looks before it creates, so running it again changes nothing.
 */
export async function provision(client: CognitoClient, options: ProvisionOptions = {}): Promise<ProvisionedPool> {
  const userPoolId = await ensureUserPool(client, options.poolName ?? DEFAULT_POOL_NAME);
  await ensureOptionalMfa(client, userPoolId);
  const clientId = await ensureAppClient(client, userPoolId, options.clientName ?? DEFAULT_CLIENT_NAME);
  for (const group of options.groups ?? [DEVELOPER_GROUP]) {
    await ensureGroup(client, userPoolId, group);
  }
  for (const account of options.accounts ?? []) {
    await ensureAccount(client, userPoolId, account);
  }
  return { userPoolId, clientId };
}

async function ensureUserPool(client: CognitoClient, poolName: string): Promise<string> {
  const { UserPools } = await client.call<{ UserPools: UserPoolSummary[] }>('ListUserPools', { MaxResults: 60 });
  const existing = UserPools.find((pool) => pool.Name === poolName);
  const pool =
    existing ??
    (
      await client.call<{ UserPool: UserPoolSummary }>('CreateUserPool', {
        PoolName: poolName,
        // SPEC §5: minimum length 6, no required character classes.
        Policies: {
          PasswordPolicy: {
            MinimumLength: 6,
            RequireUppercase: false,
            RequireLowercase: false,
            RequireNumbers: false,
            RequireSymbols: false,
          },
        },
        // Makes SignUp report where the code went, so the app shows its confirmation step.
        AutoVerifiedAttributes: ['email'],
      })
    ).UserPool;
  // With e-mail as the username attribute cognito-local renames every user to its sub, and the
  // shared account must be called literally "guest" (SPEC §6). The emulator's config.json turns it
  // off (see emulator.ts); a pool made by a differently configured emulator cannot be reused.
  if (pool.UsernameAttributes?.includes('email')) {
    throw new Error(
      `User pool ${pool.Id} (${poolName}) uses e-mail as its username attribute; delete the emulator data folder and start again.`,
    );
  }
  return pool.Id;
}

/**
 * SPEC §1: multi-factor authentication is optional. cognito-local stores a pool created without
 * MfaConfiguration as "OFF", which skips the challenge even for a user who has set up an
 * authenticator app; "OPTIONAL" asks for the code exactly from users who enabled MFA.
 */
async function ensureOptionalMfa(client: CognitoClient, userPoolId: string): Promise<void> {
  const config = await client.call<{ MfaConfiguration?: string; SoftwareTokenMfaConfiguration?: { Enabled?: boolean } }>(
    'GetUserPoolMfaConfig',
    { UserPoolId: userPoolId },
  );
  if (config.MfaConfiguration === 'OPTIONAL' && config.SoftwareTokenMfaConfiguration?.Enabled) return;
  await client.call('SetUserPoolMfaConfig', {
    UserPoolId: userPoolId,
    MfaConfiguration: 'OPTIONAL',
    SoftwareTokenMfaConfiguration: { Enabled: true },
  });
}

async function ensureAppClient(client: CognitoClient, userPoolId: string, clientName: string): Promise<string> {
  const { UserPoolClients } = await client.call<{ UserPoolClients: { ClientId: string; ClientName: string }[] }>(
    'ListUserPoolClients',
    { UserPoolId: userPoolId, MaxResults: 60 },
  );
  const existing = UserPoolClients.find((appClient) => appClient.ClientName === clientName);
  if (existing) return existing.ClientId;
  const created = await client.call<{ UserPoolClient: { ClientId: string } }>('CreateUserPoolClient', {
    UserPoolId: userPoolId,
    ClientName: clientName,
    // The emulator cannot do SRP, so the local app signs in with USER_PASSWORD_AUTH.
    ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
  });
  return created.UserPoolClient.ClientId;
}

async function ensureGroup(client: CognitoClient, userPoolId: string, groupName: string): Promise<void> {
  // Listing rather than GetGroup: cognito-local answers GetGroup with a 500 while a pool has no
  // group yet. CreateGroup on an existing group would overwrite it and drop its members.
  const { Groups } = await client.call<{ Groups: { GroupName: string }[] }>('ListGroups', { UserPoolId: userPoolId, Limit: 60 });
  if (Groups.some((group) => group.GroupName === groupName)) return;
  await client.call('CreateGroup', { UserPoolId: userPoolId, GroupName: groupName });
}

async function ensureAccount(client: CognitoClient, userPoolId: string, account: SeedAccount): Promise<void> {
  const existing = await getUser(client, userPoolId, account.username);
  if (!existing) {
    await client.call('AdminCreateUser', {
      UserPoolId: userPoolId,
      Username: account.username,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: account.email },
        { Name: 'email_verified', Value: 'true' },
      ],
    });
  } else if (
    attributeValue(existing.UserAttributes, 'email') !== account.email ||
    attributeValue(existing.UserAttributes, 'email_verified') !== 'true'
  ) {
    await client.call('AdminUpdateUserAttributes', {
      UserPoolId: userPoolId,
      Username: account.username,
      UserAttributes: [
        { Name: 'email', Value: account.email },
        { Name: 'email_verified', Value: 'true' },
      ],
    });
  }
  // Permanent confirms the account and skips the new-password challenge; it also puts back the
  // documented password if someone changed it.
  await client.call('AdminSetUserPassword', {
    UserPoolId: userPoolId,
    Username: account.username,
    Password: account.password,
    Permanent: true,
  });
  const { Groups } = await client.call<{ Groups: { GroupName: string }[] }>('AdminListGroupsForUser', {
    UserPoolId: userPoolId,
    Username: account.username,
  });
  for (const group of account.groups) {
    if (Groups.some((member) => member.GroupName === group)) continue;
    await client.call('AdminAddUserToGroup', { UserPoolId: userPoolId, Username: account.username, GroupName: group });
  }
}

export async function getUser(client: CognitoClient, userPoolId: string, username: string): Promise<CognitoUser | null> {
  try {
    return await client.call<CognitoUser>('AdminGetUser', { UserPoolId: userPoolId, Username: username });
  } catch (error) {
    if (isCognitoError(error, 'UserNotFoundException')) return null;
    throw error;
  }
}
