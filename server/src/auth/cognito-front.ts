import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { AMZ_JSON, CognitoError, rawCognitoCall } from './cognito-client.ts';
import type { AuthenticationResult, CognitoClient } from './cognito-client.ts';
import { GUEST_USERNAME } from '../../../src/config/limits.ts';
import { readMailbox, renderMailbox } from './mailbox.ts';
import { registerRedirectTarget } from './redirect-target.ts';
import type { HandleRegistry, Identity, IdentityRoutesOptions } from './types.ts';

export interface CognitoFrontOptions {
  client: CognitoClient;
  /** The pool a handle given at sign-up is set in once it is claimed (see signUpHandle). */
  userPoolId?: string;
  verifyAccessToken(token: string): Promise<Identity | null>;
  /** Serve `/local/mailbox` from this emulator folder's pool file (local mode only). */
  mailbox?: { emulatorDir: string; userPoolId: string };
  /** Serve `/local/redirect-target`, the stand-in for an external OAuth client (local mode only). */
  redirectTarget?: boolean;
  /** Called after a call that may have changed a user's attributes (e.g. preferred_username). */
  onUserChanged?(username: string): void;
}

/**
 * Calls that change the account itself. The shared guest account's password is published, so
 * letting anyone change, reset or delete it would lock every other visitor out (SPEC §6).
 */
const ACCOUNT_CHANGING_ACTIONS = new Set([
  'AssociateSoftwareToken',
  'ChangePassword',
  'ConfirmForgotPassword',
  'DeleteUser',
  'DeleteUserAttributes',
  'ForgotPassword',
  'SetUserMFAPreference',
  'UpdateUserAttributes',
  'VerifySoftwareToken',
  'VerifyUserAttribute',
]);

/** Calls after which the server's cached view of the user is stale. */
const ATTRIBUTE_CHANGING_ACTIONS = new Set(['UpdateUserAttributes', 'DeleteUserAttributes', 'VerifyUserAttribute']);

/**
 * The calls a browser may make on a user pool: the unauthenticated ones and those authorised by
 * the user's own token. Admin and pool-management calls need developer credentials on real
 * Cognito; cognito-local checks none, so the front refuses them rather than hand them to anyone
 * who can reach the server.
 */
const BROWSER_ACTIONS = new Set([
  'AssociateSoftwareToken',
  'ChangePassword',
  'ConfirmDevice',
  'ConfirmForgotPassword',
  'ConfirmSignUp',
  'DeleteUser',
  'DeleteUserAttributes',
  'ForgetDevice',
  'ForgotPassword',
  'GetDevice',
  'GetUser',
  'GetUserAttributeVerificationCode',
  'GetUserPoolMfaConfig',
  'InitiateAuth',
  'ListDevices',
  'ResendConfirmationCode',
  'RespondToAuthChallenge',
  'RevokeToken',
  'SetUserMFAPreference',
  'SignUp',
  'UpdateDeviceStatus',
  'UpdateUserAttributes',
  'VerifySoftwareToken',
  'VerifyUserAttribute',
]);

/**
 * The attributes a browser may send with each call: what the web app sets, each at most once
 * (issue 17). The emulator stores the last of two entries of one name, so a call naming
 * preferred_username twice would have the first checked and claimed and the second stored.
 */
const BROWSER_ATTRIBUTES: Readonly<Record<string, { list: 'UserAttributes' | 'UserAttributeNames'; names: ReadonlySet<string> }>> = {
  SignUp: { list: 'UserAttributes', names: new Set(['email', 'preferred_username']) },
  UpdateUserAttributes: { list: 'UserAttributes', names: new Set(['preferred_username']) },
  DeleteUserAttributes: { list: 'UserAttributeNames', names: new Set(['preferred_username']) },
};

/** Why the call's attribute list is refused, or null when it names only allowed attributes, once each. */
function attributeProblem(action: string, input: Record<string, unknown>): string | null {
  const rule = BROWSER_ATTRIBUTES[action];
  const list = rule ? input[rule.list] : undefined;
  if (!rule || list === undefined) return null;
  if (!Array.isArray(list)) return `${rule.list} must be a list.`;
  const seen = new Set<string>();
  for (const entry of list as unknown[]) {
    const name = rule.list === 'UserAttributeNames' ? entry : typeof entry === 'object' && entry !== null ? (entry as { Name?: unknown }).Name : undefined;
    if (typeof name !== 'string') return `Every entry of ${rule.list} needs a name.`;
    if (!rule.names.has(name)) return `${action} may only set ${[...rule.names].join(' and ')} here, not ${name}.`;
    if (seen.has(name)) return `${name} is given more than once.`;
    seen.add(name);
  }
  return null;
}

/**
 * `/cognito`: the web app's user-pool endpoint in local mode. Forwards each call to cognito-local
 * unchanged, except the two Amplify 6 makes that the emulator lacks.
 */
export function cognitoFront(options: CognitoFrontOptions): FastifyPluginAsync<IdentityRoutesOptions> {
  return async (app, routeOptions) => {
    const handles = routeOptions.handles;
    // Encapsulated in this plugin: the AWS JSON protocol's type, kept as text to forward verbatim.
    app.addContentTypeParser(AMZ_JSON, { parseAs: 'string' }, (_request, body, done) => done(null, body));

    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      const target = request.headers['x-amz-target'];
      const action = typeof target === 'string' ? target.split('.')[1] : undefined;
      if (!action) return sendAmz(reply, 400, { __type: 'InvalidParameterException', message: 'Missing x-amz-target header' });
      const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? {});

      if (action === 'GetTokensFromRefreshToken') return refreshTokens(options.client, body, reply);
      if (action === 'GlobalSignOut') return globalSignOut(options, body, reply);
      if (!BROWSER_ACTIONS.has(action)) {
        return sendAmz(reply, 403, {
          __type: 'AccessDeniedException',
          message: `${action} needs developer credentials; the local /cognito front only forwards calls a browser makes.`,
        });
      }
      const input = parseJson(body) ?? {};
      // cognito-local decodes access tokens without checking their signature, so a forged token
      // would pass for anyone's. Every forwarded token is verified here first, as Cognito would.
      let caller: Identity | null = null;
      if (input.AccessToken !== undefined) {
        caller = typeof input.AccessToken === 'string' ? await options.verifyAccessToken(input.AccessToken) : null;
        if (!caller) return sendAmz(reply, 400, { __type: 'NotAuthorizedException', message: 'Invalid Access Token' });
      }
      const username = caller?.username ?? (typeof input.Username === 'string' ? input.Username : undefined);
      if (ACCOUNT_CHANGING_ACTIONS.has(action) && username?.toLowerCase() === GUEST_USERNAME) {
        return sendAmz(reply, 400, {
          __type: 'NotAuthorizedException',
          message: 'The shared guest account cannot be changed. Sign up for an account of your own.',
        });
      }
      const problem = attributeProblem(action, input);
      if (problem) return invalidRequest(reply, problem);
      if (action === 'SignUp' && handles) return signUpHandle(options, handles, input, reply);
      // The handle is claimed in the database before the pool hears of it: the unique index decides
      // between two users asking for one handle at once, and the loser's pool user is never changed.
      let claim: Extract<Awaited<ReturnType<HandleRegistry['claim']>>, { status: 'claimed' }> | undefined;
      const handle = caller && handles ? requestedHandle(action, input) : undefined;
      if (caller && handles && handle !== undefined) {
        const result = await handles.claim(caller, handle);
        if (result.status === 'invalid') return sendAmz(reply, 400, { __type: 'InvalidParameterException', message: result.message });
        if (result.status === 'taken') return sendAmz(reply, 400, { __type: 'AliasExistsException', message: HANDLE_TAKEN });
        if (result.status === 'deleted') return sendAmz(reply, 400, { __type: 'NotAuthorizedException', message: 'Invalid Access Token' });
        claim = result;
      }
      let response: Response;
      try {
        response = await rawCognitoCall(options.client.endpoint, action, body);
      } catch (error) {
        await claim?.release();
        throw error;
      }
      if (!response.ok) await claim?.release();
      if (response.ok && caller && handles && removesHandle(action, input)) await handles.cleared(caller);
      if (response.ok && caller && ATTRIBUTE_CHANGING_ACTIONS.has(action)) options.onUserChanged?.(caller.username);
      return reply
        .code(response.status)
        .type(response.headers.get('content-type') ?? AMZ_JSON)
        .send(await response.text());
    };
    app.post('/cognito', handle);
    app.post('/cognito/*', handle);

    const mailbox = options.mailbox;
    if (mailbox) {
      app.get('/local/mailbox', async (_request, reply) => {
        const entries = await readMailbox(mailbox.emulatorDir, mailbox.userPoolId);
        return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(renderMailbox(entries));
      });
    }
    if (options.redirectTarget) registerRedirectTarget(app, options.verifyAccessToken);
  };
}

export const HANDLE_TAKEN = 'This handle is already taken. Please choose another.';

/**
 * SignUp, with the handle rule and the claim applied to a preferred_username given with it
 * (issue 17). The pool user is created without it; once the new user's row has claimed it in the
 * users table, the pool is given it too. A handle lost to someone else between the check and the
 * claim is simply not set: the account exists and picks a handle later, like any other.
 */
async function signUpHandle(options: CognitoFrontOptions, handles: HandleRegistry, input: Record<string, unknown>, reply: FastifyReply): Promise<FastifyReply> {
  const attributes = Array.isArray(input.UserAttributes) ? (input.UserAttributes as { Name: string; Value?: unknown }[]) : [];
  const given = attributes.find((attribute) => attribute.Name === 'preferred_username');
  const handle = given ? (typeof given.Value === 'string' ? given.Value : '') : undefined;
  if (handle !== undefined) {
    const check = await handles.check(handle);
    if (check === 'taken') return sendAmz(reply, 400, { __type: 'AliasExistsException', message: HANDLE_TAKEN });
    if (check !== 'free') return invalidRequest(reply, check.invalid);
  }
  const forwarded = handle === undefined ? input : { ...input, UserAttributes: attributes.filter((attribute) => attribute !== given) };
  const response = await rawCognitoCall(options.client.endpoint, 'SignUp', JSON.stringify(forwarded));
  const text = await response.text();
  const username = input.Username;
  const sub = response.ok ? parseJson(text)?.UserSub : undefined;
  if (handle !== undefined && typeof sub === 'string' && typeof username === 'string' && options.userPoolId) {
    const email = attributes.find((attribute) => attribute.Name === 'email')?.Value;
    const claim = await handles.claim(
      { sub, username, email: typeof email === 'string' ? email : null, preferredUsername: null, groups: [] },
      handle,
    );
    if (claim.status === 'claimed') {
      try {
        await options.client.call('AdminUpdateUserAttributes', {
          UserPoolId: options.userPoolId,
          Username: username,
          UserAttributes: [{ Name: 'preferred_username', Value: handle }],
        });
      } catch (error) {
        await claim.release();
        throw error;
      }
    }
  }
  return reply
    .code(response.status)
    .type(response.headers.get('content-type') ?? AMZ_JSON)
    .send(text);
}

/** The preferred_username an UpdateUserAttributes call sets, if any (as sent, not trimmed). */
function requestedHandle(action: string, input: Record<string, unknown>): string | undefined {
  if (action !== 'UpdateUserAttributes' || !Array.isArray(input.UserAttributes)) return undefined;
  for (const attribute of input.UserAttributes as unknown[]) {
    if (typeof attribute !== 'object' || attribute === null) continue;
    const { Name, Value } = attribute as { Name?: unknown; Value?: unknown };
    if (Name === 'preferred_username') return typeof Value === 'string' ? Value : '';
  }
  return undefined;
}

function removesHandle(action: string, input: Record<string, unknown>): boolean {
  return (
    action === 'DeleteUserAttributes' &&
    Array.isArray(input.UserAttributeNames) &&
    input.UserAttributeNames.includes('preferred_username')
  );
}

function sendAmz(reply: FastifyReply, status: number, payload: unknown): FastifyReply {
  return reply.code(status).type(AMZ_JSON).send(JSON.stringify(payload));
}

function parseJson(body: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function invalidRequest(reply: FastifyReply, message: string): FastifyReply {
  return sendAmz(reply, 400, { __type: 'InvalidParameterException', message });
}

function cognitoFailure(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof CognitoError) return sendAmz(reply, error.status, { __type: error.type, message: error.message });
  throw error;
}

/**
 * Amplify 6.22 refreshes with GetTokensFromRefreshToken; the emulator only knows the older
 * InitiateAuth REFRESH_TOKEN_AUTH. The emulator does not rotate refresh tokens, so the one sent
 * stays valid and is returned, as Cognito does when rotation is off.
 */
async function refreshTokens(client: CognitoClient, body: string, reply: FastifyReply): Promise<FastifyReply> {
  const input = parseJson(body);
  const clientId = input?.ClientId;
  const refreshToken = input?.RefreshToken;
  if (typeof clientId !== 'string' || typeof refreshToken !== 'string') {
    return invalidRequest(reply, 'ClientId and RefreshToken are required');
  }
  try {
    const { AuthenticationResult } = await client.call<{ AuthenticationResult: AuthenticationResult }>('InitiateAuth', {
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: clientId,
      AuthParameters: { REFRESH_TOKEN: refreshToken },
      ...(input?.ClientMetadata ? { ClientMetadata: input.ClientMetadata } : {}),
    });
    const { exp, iat } = decodeJwt(AuthenticationResult.AccessToken);
    return sendAmz(reply, 200, {
      AuthenticationResult: {
        AccessToken: AuthenticationResult.AccessToken,
        IdToken: AuthenticationResult.IdToken,
        RefreshToken: refreshToken,
        ExpiresIn: exp !== undefined && iat !== undefined ? exp - iat : 3600,
        TokenType: 'Bearer',
      },
    });
  } catch (error) {
    return cognitoFailure(reply, error);
  }
}

/**
 * cognito-local has no GlobalSignOut. Answering it keeps Amplify's signOut({ global: true })
 * working; the emulator cannot revoke its tokens, which simply expire.
 */
async function globalSignOut(options: CognitoFrontOptions, body: string, reply: FastifyReply): Promise<FastifyReply> {
  const accessToken = parseJson(body)?.AccessToken;
  if (typeof accessToken !== 'string') return invalidRequest(reply, 'AccessToken is required');
  const identity = await options.verifyAccessToken(accessToken);
  if (!identity) return sendAmz(reply, 400, { __type: 'NotAuthorizedException', message: 'Invalid Access Token' });
  return sendAmz(reply, 200, {});
}
