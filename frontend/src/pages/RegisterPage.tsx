import { useState } from 'react';
import { AuthCard } from '../features/auth/components/AuthCard';
import { CheckEmailView } from '../features/auth/components/CheckEmailView';
import { RegisterForm } from '../features/auth/components/RegisterForm';

export function RegisterPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
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
