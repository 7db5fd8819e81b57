import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { AuthCard } from '../features/auth/components/AuthCard';
import { CheckEmailView } from '../features/auth/components/CheckEmailView';
import { RegisterForm } from '../features/auth/components/RegisterForm';
import { InvitedRegistration } from '../features/invitations/components/InvitedRegistration';

export function RegisterPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  // Invited mode: the invitation's token names the company and fixes the email.
  const token = useSearchParams()[0].get('token');
  if (token) return <InvitedRegistration token={token} />;
  if (sentTo) {
    return (
      <AuthCard title="Confirm your email">
        <CheckEmailView email={sentTo} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Create an Account" description="Create your account and your company workspace">
      <RegisterForm onVerificationRequired={setSentTo} />
    </AuthCard>
  );
}
