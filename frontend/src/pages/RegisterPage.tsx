import { AuthCard } from '../features/auth/components/AuthCard';
import { RegisterForm } from '../features/auth/components/RegisterForm';

export function RegisterPage() {
  return (
    <AuthCard title="Create an Account" description="Create your account and your company workspace">
      <RegisterForm />
    </AuthCard>
  );
}
