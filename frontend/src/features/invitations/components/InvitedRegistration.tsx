import { Flex, Spin, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { AuthCard } from '../../auth/components/AuthCard';
import { useInvitationLookup } from '../hooks/useInvitationLookup';
import { InvalidInvitationView, signInPathBackTo } from './InvitationFlow';
import { InvitedSignUpForm } from './InvitedSignUpForm';

/** /register?token=: 'Complete Your Registration', naming the company, the email fixed to the invited one. */
export function InvitedRegistration({ token }: { token: string }) {
  const lookup = useInvitationLookup(token);
  const [invalidated, setInvalidated] = useState(false);

  if (lookup.status === 'loading')
    return (
      <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
        <Spin size="large" description="Loading invitation..." />
      </Flex>
    );
  if (lookup.status === 'invalid' || invalidated) return <InvalidInvitationView />;
  const { invitation } = lookup;

  return (
    <AuthCard
      title="Complete Your Registration"
      description={`You have been invited to join ${invitation.companyName}.`}
    >
      <InvitedSignUpForm
        token={token}
        invitation={invitation}
        redirect={null}
        mode="register"
        onInvalid={() => setInvalidated(true)}
      />
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        <Link to={signInPathBackTo(token, null)}>Already have an account? Sign in</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
