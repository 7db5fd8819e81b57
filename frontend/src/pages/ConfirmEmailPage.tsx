import { useSearchParams } from 'react-router-dom';
import { AuthCard } from '../features/auth/components/AuthCard';
import { EmailLinkResult } from '../features/auth/components/EmailLinkResult';
import { useEmailLink } from '../features/auth/hooks/useEmailLink';

/** Target of the link sent to a new address when the email is changed in the profile. */
export function ConfirmEmailPage() {
  const [searchParams] = useSearchParams();
  const state = useEmailLink('confirm', searchParams.get('token'));
  return (
    <AuthCard title="Confirm your new email">
      <EmailLinkResult
        state={state}
        checkingText="Confirming your new email..."
        successTitle="Email updated"
        successText={
          state.status === 'done' && state.email
            ? `Your account's email is now ${state.email}.`
            : "Your account's email has been changed."
        }
      />
    </AuthCard>
  );
}
