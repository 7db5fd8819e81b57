import { useSearchParams } from 'react-router-dom';
import { AuthCard } from '../features/auth/components/AuthCard';
import { EmailLinkResult } from '../features/auth/components/EmailLinkResult';
import { useEmailLink } from '../features/auth/hooks/useEmailLink';

/** Target of the verification link sent at registration. */
export function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  const state = useEmailLink('verify', searchParams.get('token'));
  return (
    <AuthCard title="Verify your email">
      <EmailLinkResult
        state={state}
        checkingText="Verifying your email..."
        successTitle="Email verified"
        successText="Your email address is confirmed. You can now sign in."
      />
    </AuthCard>
  );
}
