import { Alert, Button, Form, Result } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AuthCard } from '../features/auth/components/AuthCard';
import { useAuthActions } from '../features/auth/hooks/useAuthActions';
import { NewPasswordFields } from '../components/NewPasswordFields';

interface ResetValues {
  password: string;
  confirmPassword: string;
}

const INVALID_LINK_MESSAGE = 'This password reset link is invalid or has expired.';

export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const { resetPassword } = useAuthActions();
  const token = searchParams.get('token') ?? '';
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(token ? null : INVALID_LINK_MESSAGE);

  const onFinish = async ({ password }: ResetValues) => {
    setSubmitting(true);
    setError(null);
    const failed = await resetPassword(token, password);
    setSubmitting(false);
    if (failed) setError(failed);
    else setDone(true);
  };

  if (done) {
    return (
      <AuthCard title="Reset your password">
        <Result
          status="success"
          title="Password reset successful"
          subTitle="Your password has been changed. You can now sign in with your new password."
          extra={<Link to="/">Sign in</Link>}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Reset your password"
      description="Choose a new password for your account."
      footer={<Link to="/">Back to sign in</Link>}
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <Form<ResetValues> name="resetPassword" layout="vertical" onFinish={(values) => void onFinish(values)}>
        <NewPasswordFields name="password" />
        <Button type="primary" htmlType="submit" block disabled={submitting || !token}>
          {submitting ? 'Resetting...' : 'Reset Password'}
        </Button>
      </Form>
    </AuthCard>
  );
}
