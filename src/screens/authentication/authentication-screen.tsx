import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PageLoader } from '@/components/page-loader';
import { SessionActorContext } from '@/components/session/session-context';
import { ROUTES } from '@/config/routes';
import {
  selectAuthView,
  selectCurrentUser,
  selectHandle,
  selectIsSignedIn,
  selectSessionStatus,
  type SessionStatus,
} from '@/machines/session/session.selectors';
import { MfaCodeForm, MfaSelectionForm } from '@/screens/authentication/mfa-forms';
import { NewPasswordForm } from '@/screens/authentication/new-password-form';
import { ForgotPasswordForm, ResetPasswordForm } from '@/screens/authentication/password-reset-forms';
import { SignInForm } from '@/screens/authentication/sign-in-form';
import { ConfirmSignUpForm, SignUpForm } from '@/screens/authentication/sign-up-forms';

const VIEWS = {
  signIn: SignInForm,
  signUp: SignUpForm,
  confirmSignUp: ConfirmSignUpForm,
  forgotPassword: ForgotPasswordForm,
  resetPassword: ResetPasswordForm,
  mfaSelection: MfaSelectionForm,
  mfaCode: MfaCodeForm,
  newPassword: NewPasswordForm,
} as const;

/** Someone already signed in sees who they are and where to go (the session moves them on too). */
function SignedIn() {
  const user = SessionActorContext.useSelector(selectCurrentUser);
  const handle = SessionActorContext.useSelector(selectHandle);
  const name = handle ? `@${handle}` : (user?.attributes.email ?? user?.username ?? '');
  return (
    <Stack gap="md">
      <Title order={1}>Sign in</Title>
      <Text>You are signed in as {name}.</Text>
      {handle ? (
        <Anchor component={Link} to={ROUTES.profile(handle)}>
          Go to your profile
        </Anchor>
      ) : (
        <Anchor component={Link} to={ROUTES.account}>
          Choose your handle on the account page
        </Anchor>
      )}
    </Stack>
  );
}

/**
 * Until the session knows who is signed in (at boot, and while it loads the user and runs the
 * post-load steps right after a sign-in) the page shows a loader, not a form that could be sent again.
 */
const LOADING_STATUSES: ReadonlySet<SessionStatus> = new Set(['booting', 'loadingUser', 'postLoad']);

/** /authentication: the step of signing in (or up) the session is at. */
export function AuthenticationScreen() {
  const status = SessionActorContext.useSelector(selectSessionStatus);
  const signedIn = SessionActorContext.useSelector(selectIsSignedIn);
  const view = SessionActorContext.useSelector(selectAuthView);
  const View = VIEWS[view];
  return (
    <Container size="xs" py="xl">
      {LOADING_STATUSES.has(status) ? <PageLoader /> : signedIn ? <SignedIn /> : <View key={view} />}
    </Container>
  );
}
