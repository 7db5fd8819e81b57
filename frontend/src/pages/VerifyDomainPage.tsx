import { useSearchParams } from 'react-router-dom';
import { AuthCard } from '../features/auth/components/AuthCard';
import { EmailLinkResult } from '../features/auth/components/EmailLinkResult';
import { useEmailLink } from '../features/auth/hooks/useEmailLink';

/** Target of the link mailed to an address at a domain a company claims for single sign-on. */
export function VerifyDomainPage() {
  const [searchParams] = useSearchParams();
  const state = useEmailLink('domain', searchParams.get('token'));
  const domain = state.status === 'done' ? state.email : null;
  return (
    <AuthCard title="Confirm domain">
      <EmailLinkResult
        state={state}
        checkingText="Confirming the domain..."
        successTitle="Domain confirmed"
        successText={`${domain ?? 'The domain'} can now be used for single sign-on by the company that asked.`}
      />
    </AuthCard>
  );
}
