import { delay, http, HttpResponse } from 'msw';

/**
 * A fake Cognito user pool for Amplify, as msw handlers on `POST http://localhost/cognito` (the
 * test env's VITE_COGNITO_ENDPOINT). It speaks the JSON-RPC protocol Amplify's clients use
 * (operation in `X-Amz-Target`, errors as `{ __type, message }`) and issues unsigned JWTs, which
 * Amplify decodes without verifying. Every code it sends is `fakePool.code`.
 *
 * Tests shape it per test: `fakePool.addUser(...)`, `fakePool.failNext(...)`, and read
 * `fakePool.calls` to see what Amplify asked. `resetFakePool()` runs after every test.
 */

export const COGNITO_ENDPOINT = 'http://localhost/cognito';
export const TEST_CLIENT_ID = 'testclient';
export const TEST_POOL_ID = 'local_test';

export type FakeMfa = 'SMS' | 'TOTP' | 'SELECT';

export interface FakeUser {
  /** The pool username: the e-mail address for people, "guest" for the shared account. */
  username: string;
  password: string;
  sub: string;
  confirmed: boolean;
  groups: string[];
  attributes: Record<string, string>;
  /** Ask for an MFA code (or a choice of method) after the password. */
  mfa?: FakeMfa;
  /** Ask for a new password after the first sign-in (an account created by an admin). */
  mustChangePassword?: boolean;
}

export interface InjectedFailure {
  status: number;
  /** The Cognito error type, e.g. "NotAuthorizedException"; omitted for bare HTTP errors. */
  name?: string;
  message?: string;
}

export type CognitoOperation =
  | 'InitiateAuth'
  | 'RespondToAuthChallenge'
  | 'SignUp'
  | 'ConfirmSignUp'
  | 'ResendConfirmationCode'
  | 'ForgotPassword'
  | 'ConfirmForgotPassword'
  | 'GetUser'
  | 'UpdateUserAttributes'
  | 'GetUserAttributeVerificationCode'
  | 'VerifyUserAttribute'
  | 'GetTokensFromRefreshToken'
  | 'GlobalSignOut'
  | 'RevokeToken'
  | 'DeleteUser';

interface Failure extends InjectedFailure {
  remaining: number;
}

const state = {
  users: new Map<string, FakeUser>(),
  failures: new Map<CognitoOperation, Failure[]>(),
  calls: [] as CognitoOperation[],
  /** Seconds an access / ID token lives. */
  tokenLifetimeSeconds: 3600,
  /** Milliseconds every answer waits, to see what the app shows meanwhile. */
  latencyMs: 0,
  /** While set, every answer waits for it (fakePool.hold): what the app shows meanwhile, on a machine of any speed. */
  gate: null as Promise<void> | null,
  releaseGate: (): void => {},
  nextSub: 1,
};

// ---------------------------------------------------------------------------------------------
// Tokens

const base64Url = (value: string): string =>
  btoa(String.fromCharCode(...new TextEncoder().encode(value)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const jwt = (payload: Record<string, unknown>): string =>
  `${base64Url(JSON.stringify({ alg: 'none', typ: 'JWT', kid: 'fake' }))}.${base64Url(JSON.stringify(payload))}.fake-signature`;

const decodePayload = (token: unknown): Record<string, unknown> | null => {
  if (typeof token !== 'string') return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))) as Record<string, unknown>;
  } catch {
    return null;
  }
};

const issuer = `${COGNITO_ENDPOINT}/${TEST_POOL_ID}`;

function tokensFor(user: FakeUser, { withRefreshToken = true } = {}) {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + state.tokenLifetimeSeconds;
  const groups = user.groups.length > 0 ? { 'cognito:groups': user.groups } : {};
  const jti = `jti-${user.sub}-${iat}-${Math.random().toString(36).slice(2)}`;
  const accessToken = jwt({
    sub: user.sub,
    username: user.username,
    client_id: TEST_CLIENT_ID,
    token_use: 'access',
    scope: 'aws.cognito.signin.user.admin',
    origin_jti: jti,
    jti,
    iss: issuer,
    iat,
    auth_time: iat,
    exp,
    ...groups,
  });
  const idToken = jwt({
    sub: user.sub,
    'cognito:username': user.username,
    aud: TEST_CLIENT_ID,
    token_use: 'id',
    origin_jti: jti,
    iss: issuer,
    iat,
    auth_time: iat,
    exp,
    ...groups,
    ...user.attributes,
  });
  return {
    AuthenticationResult: {
      AccessToken: accessToken,
      IdToken: idToken,
      ...(withRefreshToken ? { RefreshToken: `refresh.${user.username}` } : {}),
      ExpiresIn: state.tokenLifetimeSeconds,
      TokenType: 'Bearer',
    },
    ChallengeParameters: {},
  };
}

// ---------------------------------------------------------------------------------------------
// Pool controls

const maskedEmail = (email: string): string => {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`;
};

const emailDelivery = (user: FakeUser) => ({
  AttributeName: 'email',
  DeliveryMedium: 'EMAIL',
  Destination: maskedEmail(user.attributes.email ?? user.username),
});

export const fakePool = {
  /** Every code the pool sends (sign-up, MFA, password reset, e-mail verification). */
  code: '123456',

  /** Adds a confirmed user with a verified e-mail unless told otherwise. */
  addUser(overrides: Partial<FakeUser> & { username: string }): FakeUser {
    const sub = overrides.sub ?? `00000000-0000-4000-8000-${String(state.nextSub++).padStart(12, '0')}`;
    const isEmail = overrides.username.includes('@');
    const user: FakeUser = {
      password: 'correct-password',
      confirmed: true,
      groups: [],
      ...overrides,
      sub,
      attributes: {
        sub,
        ...(isEmail ? { email: overrides.username, email_verified: 'true' } : {}),
        ...overrides.attributes,
      },
    };
    state.users.set(user.username, user);
    return user;
  },

  user(username: string): FakeUser | undefined {
    return state.users.get(username);
  },

  /** The next `times` calls of `operation` answer with this failure instead. */
  failNext(operation: CognitoOperation, failure: InjectedFailure, times = 1): void {
    const list = state.failures.get(operation) ?? [];
    list.push({ ...failure, remaining: times });
    state.failures.set(operation, list);
  },

  /** The operations Amplify called, in order. */
  get calls(): readonly CognitoOperation[] {
    return state.calls;
  },

  set tokenLifetimeSeconds(seconds: number) {
    state.tokenLifetimeSeconds = seconds;
  },

  set latencyMs(milliseconds: number) {
    state.latencyMs = milliseconds;
  },

  /**
   * Holds every answer from now until the returned function is called: unlike a latency, the
   * test decides when the call ends, so a busy machine cannot end it before the test has looked.
   */
  hold(): () => void {
    state.gate = new Promise<void>((resolve) => {
      state.releaseGate = () => {
        state.gate = null;
        resolve();
      };
    });
    return () => state.releaseGate();
  },
};

export function resetFakePool(): void {
  state.users.clear();
  state.failures.clear();
  state.calls.length = 0;
  state.tokenLifetimeSeconds = 3600;
  state.latencyMs = 0;
  state.releaseGate();
  state.nextSub = 1;
  fakePool.code = '123456';
}

// ---------------------------------------------------------------------------------------------
// Operations

type Body = Record<string, unknown>;

const error = (status: number, name: string, message: string) =>
  HttpResponse.json({ __type: name, message }, { status, headers: { 'x-amzn-errortype': name } });

const notAuthorized = () => error(400, 'NotAuthorizedException', 'Incorrect username or password.');
const codeMismatch = () => error(400, 'CodeMismatchException', 'Invalid verification code provided, please try again.');
const invalidToken = () => error(400, 'NotAuthorizedException', 'Access Token has been revoked');

const stringRecord = (value: unknown): Record<string, string> =>
  value && typeof value === 'object' ? (value as Record<string, string>) : {};

const attributeList = (value: unknown): { Name: string; Value: string }[] =>
  Array.isArray(value) ? (value as { Name: string; Value: string }[]) : [];

const userFromAccessToken = (body: Body): FakeUser | undefined => {
  const payload = decodePayload(body.AccessToken);
  if (!payload || payload.token_use !== 'access' || typeof payload.username !== 'string') return undefined;
  return state.users.get(payload.username);
};

const passwordTooShort = (password: unknown) =>
  typeof password !== 'string' || password.length < 6
    ? error(400, 'InvalidPasswordException', 'Password did not conform with policy: Password not long enough')
    : null;

/** What follows a correct password: an MFA step, a new-password step, or the tokens. */
function afterPassword(user: FakeUser) {
  const session = `session.${user.username}`;
  if (user.mustChangePassword) {
    return HttpResponse.json({
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      Session: session,
      ChallengeParameters: { USER_ID_FOR_SRP: user.username, requiredAttributes: '[]', userAttributes: '{}' },
    });
  }
  return afterNewPassword(user);
}

function afterNewPassword(user: FakeUser) {
  const session = `session.${user.username}`;
  if (user.mfa === 'SELECT') {
    return HttpResponse.json({
      ChallengeName: 'SELECT_MFA_TYPE',
      Session: session,
      ChallengeParameters: { USERNAME: user.username, MFAS_CAN_CHOOSE: '["SMS_MFA","SOFTWARE_TOKEN_MFA"]' },
    });
  }
  if (user.mfa) return mfaChallenge(user, user.mfa);
  return HttpResponse.json(tokensFor(user));
}

function mfaChallenge(user: FakeUser, method: 'SMS' | 'TOTP') {
  const session = `session.${user.username}`;
  if (method === 'SMS') {
    return HttpResponse.json({
      ChallengeName: 'SMS_MFA',
      Session: session,
      ChallengeParameters: {
        USERNAME: user.username,
        CODE_DELIVERY_DELIVERY_MEDIUM: 'SMS',
        CODE_DELIVERY_DESTINATION: '+*******1234',
      },
    });
  }
  return HttpResponse.json({
    ChallengeName: 'SOFTWARE_TOKEN_MFA',
    Session: session,
    ChallengeParameters: { USERNAME: user.username },
  });
}

const operations: Record<CognitoOperation, (body: Body) => Response> = {
  InitiateAuth(body) {
    const parameters = stringRecord(body.AuthParameters);
    if (body.AuthFlow === 'REFRESH_TOKEN_AUTH' || body.AuthFlow === 'REFRESH_TOKEN') {
      return operations.GetTokensFromRefreshToken({ RefreshToken: parameters.REFRESH_TOKEN });
    }
    if (body.AuthFlow !== 'USER_PASSWORD_AUTH') {
      return error(400, 'InvalidParameterException', `The fake pool does not support ${String(body.AuthFlow)}.`);
    }
    const user = state.users.get(parameters.USERNAME ?? '');
    if (!user || user.password !== parameters.PASSWORD) return notAuthorized();
    if (!user.confirmed) return error(400, 'UserNotConfirmedException', 'User is not confirmed.');
    return afterPassword(user);
  },

  RespondToAuthChallenge(body) {
    const responses = stringRecord(body.ChallengeResponses);
    const session = typeof body.Session === 'string' ? body.Session : '';
    const user = session.startsWith('session.') ? state.users.get(session.slice('session.'.length)) : undefined;
    if (!user) return error(400, 'NotAuthorizedException', 'Invalid session for the user, session is expired.');
    switch (body.ChallengeName) {
      case 'SMS_MFA':
        return responses.SMS_MFA_CODE === fakePool.code ? HttpResponse.json(tokensFor(user)) : codeMismatch();
      case 'SOFTWARE_TOKEN_MFA':
        return responses.SOFTWARE_TOKEN_MFA_CODE === fakePool.code
          ? HttpResponse.json(tokensFor(user))
          : error(400, 'CodeMismatchException', 'Invalid code received for user');
      case 'SELECT_MFA_TYPE':
        if (responses.ANSWER === 'SMS_MFA') return mfaChallenge(user, 'SMS');
        if (responses.ANSWER === 'SOFTWARE_TOKEN_MFA') return mfaChallenge(user, 'TOTP');
        return error(400, 'InvalidParameterException', 'Unknown MFA type.');
      case 'NEW_PASSWORD_REQUIRED': {
        const tooShort = passwordTooShort(responses.NEW_PASSWORD);
        if (tooShort) return tooShort;
        user.password = responses.NEW_PASSWORD ?? '';
        user.mustChangePassword = false;
        return afterNewPassword(user);
      }
      default:
        return error(400, 'InvalidParameterException', `Unknown challenge ${String(body.ChallengeName)}.`);
    }
  },

  SignUp(body) {
    const username = String(body.Username ?? '');
    if (state.users.has(username)) return error(400, 'UsernameExistsException', 'User already exists');
    const tooShort = passwordTooShort(body.Password);
    if (tooShort) return tooShort;
    const attributes = Object.fromEntries(attributeList(body.UserAttributes).map(({ Name, Value }) => [Name, Value]));
    const user = fakePool.addUser({
      username,
      password: String(body.Password),
      confirmed: false,
      attributes: { email: username, email_verified: 'false', ...attributes },
    });
    return HttpResponse.json({ UserConfirmed: false, UserSub: user.sub, CodeDeliveryDetails: emailDelivery(user) });
  },

  ConfirmSignUp(body) {
    const user = state.users.get(String(body.Username ?? ''));
    if (!user) return error(400, 'UserNotFoundException', 'Username/client id combination not found.');
    if (body.ConfirmationCode !== fakePool.code) return codeMismatch();
    user.confirmed = true;
    user.attributes.email_verified = 'true';
    return HttpResponse.json({});
  },

  ResendConfirmationCode(body) {
    const user = state.users.get(String(body.Username ?? ''));
    if (!user) return error(400, 'UserNotFoundException', 'Username/client id combination not found.');
    return HttpResponse.json({ CodeDeliveryDetails: emailDelivery(user) });
  },

  ForgotPassword(body) {
    const user = state.users.get(String(body.Username ?? ''));
    if (!user) return error(400, 'UserNotFoundException', 'Username/client id combination not found.');
    return HttpResponse.json({ CodeDeliveryDetails: emailDelivery(user) });
  },

  ConfirmForgotPassword(body) {
    const user = state.users.get(String(body.Username ?? ''));
    if (!user) return error(400, 'UserNotFoundException', 'Username/client id combination not found.');
    if (body.ConfirmationCode !== fakePool.code) return codeMismatch();
    const tooShort = passwordTooShort(body.Password);
    if (tooShort) return tooShort;
    user.password = String(body.Password);
    return HttpResponse.json({});
  },

  GetUser(body) {
    const user = userFromAccessToken(body);
    if (!user) return invalidToken();
    return HttpResponse.json({
      Username: user.username,
      UserAttributes: Object.entries(user.attributes).map(([Name, Value]) => ({ Name, Value })),
      UserMFASettingList: user.mfa ? [user.mfa === 'TOTP' ? 'SOFTWARE_TOKEN_MFA' : 'SMS_MFA'] : [],
    });
  },

  UpdateUserAttributes(body) {
    const user = userFromAccessToken(body);
    if (!user) return invalidToken();
    for (const { Name, Value } of attributeList(body.UserAttributes)) user.attributes[Name] = Value;
    return HttpResponse.json({ CodeDeliveryDetailsList: [] });
  },

  GetUserAttributeVerificationCode(body) {
    const user = userFromAccessToken(body);
    if (!user) return invalidToken();
    return HttpResponse.json({ CodeDeliveryDetails: emailDelivery(user) });
  },

  VerifyUserAttribute(body) {
    const user = userFromAccessToken(body);
    if (!user) return invalidToken();
    if (body.Code !== fakePool.code) return codeMismatch();
    user.attributes[`${String(body.AttributeName)}_verified`] = 'true';
    return HttpResponse.json({});
  },

  GetTokensFromRefreshToken(body) {
    const token = typeof body.RefreshToken === 'string' ? body.RefreshToken : '';
    const user = token.startsWith('refresh.') ? state.users.get(token.slice('refresh.'.length)) : undefined;
    if (!user) return error(400, 'NotAuthorizedException', 'Invalid Refresh Token');
    return HttpResponse.json(tokensFor(user));
  },

  GlobalSignOut: () => HttpResponse.json({}),
  RevokeToken: () => HttpResponse.json({}),

  DeleteUser(body) {
    const user = userFromAccessToken(body);
    if (!user) return invalidToken();
    state.users.delete(user.username);
    return HttpResponse.json({});
  },
};

const isOperation = (name: string): name is CognitoOperation => Object.hasOwn(operations, name);

function takeFailure(operation: CognitoOperation): Failure | undefined {
  const list = state.failures.get(operation);
  const failure = list?.[0];
  if (!list || !failure) return undefined;
  failure.remaining -= 1;
  if (failure.remaining <= 0) list.shift();
  return failure;
}

export const cognitoHandlers = [
  http.post(COGNITO_ENDPOINT, async ({ request }) => {
    const target = request.headers.get('x-amz-target') ?? '';
    const operation = target.replace(/^AWSCognitoIdentityProviderService\./, '');
    if (!isOperation(operation)) return error(400, 'UnknownOperationException', `Unknown operation ${target}`);
    state.calls.push(operation);
    if (state.latencyMs > 0) await delay(state.latencyMs);
    if (state.gate) await state.gate;
    const failure = takeFailure(operation);
    if (failure) {
      // A bare HTTP failure still has a JSON body, as AWS gateways answer.
      if (!failure.name) return HttpResponse.json({ message: failure.message ?? 'Service error' }, { status: failure.status });
      return error(failure.status, failure.name, failure.message ?? failure.name);
    }
    const body = (await request.json().catch(() => ({}))) as Body;
    return operations[operation](body);
  }),
];
