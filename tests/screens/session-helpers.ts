import { signIn } from 'aws-amplify/auth';
import { fakePool, type FakeUser } from '../msw/cognito';

/**
 * Puts a user in the fake pool and signs them in through Amplify before the app renders, as if
 * they had signed in on an earlier visit: the app then boots with a stored session.
 */
export async function signedInAs(user: Partial<FakeUser> & { username: string }): Promise<FakeUser> {
  const added = fakePool.addUser(user);
  const result = await signIn({
    username: added.username,
    password: added.password,
    options: { authFlowType: 'USER_PASSWORD_AUTH' },
  });
  if (!result.isSignedIn) throw new Error(`signedInAs(${user.username}) stopped at ${result.nextStep.signInStep}`);
  return added;
}

/** A person with a verified e-mail and a handle. */
export const alice = { username: 'alice@example.com', attributes: { preferred_username: 'alice' } };
