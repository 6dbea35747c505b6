import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totp, wrongTotp } from '../../helpers/totp.ts';
import { callCognitoFront, signUpUser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Whether the local stack can exercise an authenticator-app (TOTP, SOFTWARE_TOKEN_MFA) sign-in
 * end to end through the `/cognito` front, the way Amplify does it, with codes computed here.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('TOTP sign-in through the /cognito front', () => {
  it('associates an authenticator, verifies it, makes it preferred, and signs in answering SOFTWARE_TOKEN_MFA', async () => {
    const user = await signUpUser(server, 'totp');
    const { clientId } = server.emulator;

    const associate = await callCognitoFront(server, 'AssociateSoftwareToken', { AccessToken: user.accessToken });
    expect(associate.status).toBe(200);
    const secret = associate.body?.SecretCode;
    expect(typeof secret).toBe('string');

    const verify = await callCognitoFront(server, 'VerifySoftwareToken', {
      AccessToken: user.accessToken,
      UserCode: totp(secret as string),
      FriendlyDeviceName: 'test phone',
    });
    expect(verify.status).toBe(200);
    expect(verify.body).toMatchObject({ Status: 'SUCCESS' });

    const preference = await callCognitoFront(server, 'SetUserMFAPreference', {
      AccessToken: user.accessToken,
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    });
    expect(preference.status).toBe(200);

    const signIn = await callCognitoFront(server, 'InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: user.username, PASSWORD: 'secret-password-1' },
    });
    expect(signIn.status).toBe(200);
    expect(signIn.body).toMatchObject({ ChallengeName: 'SOFTWARE_TOKEN_MFA' });
    expect(signIn.body?.AuthenticationResult).toBeUndefined();

    const wrong = await callCognitoFront(server, 'RespondToAuthChallenge', {
      ChallengeName: 'SOFTWARE_TOKEN_MFA',
      ClientId: clientId,
      Session: signIn.body?.Session,
      ChallengeResponses: { USERNAME: user.username, SOFTWARE_TOKEN_MFA_CODE: wrongTotp(secret as string) },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body?.__type).toBe('CodeMismatchException');

    const answer = await callCognitoFront(server, 'RespondToAuthChallenge', {
      ChallengeName: 'SOFTWARE_TOKEN_MFA',
      ClientId: clientId,
      Session: signIn.body?.Session,
      ChallengeResponses: { USERNAME: user.username, SOFTWARE_TOKEN_MFA_CODE: totp(secret as string) },
    });
    expect(answer.status).toBe(200);
    const tokens = answer.body?.AuthenticationResult as { AccessToken: string } | undefined;
    expect(tokens?.AccessToken).toBeTruthy();
    await expect(server.emulator.identity.verifyAccessToken(tokens?.AccessToken ?? '')).resolves.toMatchObject({
      username: user.username,
    });
  });
});
