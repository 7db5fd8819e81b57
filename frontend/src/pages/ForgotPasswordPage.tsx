import { Button, Form, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { AuthCard } from '../features/auth/components/AuthCard';
import { useAuthActions } from '../features/auth/hooks/useAuthActions';
import { EmailField } from '../features/auth/components/EmailField';

export function ForgotPasswordPage() {
  const { requestPasswordReset } = useAuthActions();
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState(false);

  const onFinish = async ({ email }: { email: string }) => {
    setSubmitting(true);
    if (await requestPasswordReset(email.trim())) setSent(true);
    setSubmitting(false);
  };

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter your email and we will send you a link to reset your password."
      footer={<Link to="/">Back to sign in</Link>}
    >
      {sent && (
        <Typography.Paragraph type="success" role="status">
          If an account exists for that email, a password reset link is on its way.
        </Typography.Paragraph>
      )}
      <Form<{ email: string }>
        name="forgotPassword"
        layout="vertical"
        onFinish={(values) => void onFinish(values)}
      >
        <EmailField />
        <Button type="primary" htmlType="submit" block disabled={submitting}>
          {submitting ? 'Sending...' : 'Send reset link'}
        </Button>
      </Form>
    </AuthCard>
  );
}
