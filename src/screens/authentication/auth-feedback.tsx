import { Alert } from '@mantine/core';
import { SessionActorContext } from '@/components/session/session-context';
import { selectAuthError, selectAuthNotice } from '@/machines/session/session.selectors';

/** The last failure (an alert) and the last notice ("We sent a code to …") of the sign-in flow. */
export function AuthFeedback() {
  const error = SessionActorContext.useSelector(selectAuthError);
  const notice = SessionActorContext.useSelector(selectAuthNotice);
  return (
    <>
      {error && (
        <Alert role="alert" color="red" title="That did not work">
          {error}
        </Alert>
      )}
      {notice && (
        <Alert role="status" color="blue">
          {notice}
        </Alert>
      )}
    </>
  );
}
