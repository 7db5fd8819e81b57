import { AuthCard } from '../features/auth/components/AuthCard';
import { SignInForm } from '../features/auth/components/SignInForm';

export function SignInPage() {
  return (
    <AuthCard title="Welcome back" description="Sign in to your Switchboard account">
      <SignInForm />
    </AuthCard>
  );
}
