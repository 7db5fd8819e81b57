import { App, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { authApi } from '../api/authApi';
import { AuthCard } from '../features/auth/components/AuthCard';

export function ForgotPasswordPage() {
  const { notification } = App.useApp();
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState(false);

  const onFinish = async ({ email }: { email: string }) => {
    setSubmitting(true);
    try {
      await authApi.forgotPassword(email.trim());
      setSent(true);
      notification.success({
        title: 'Password reset email sent',
        description: 'Check your email for a link to reset your password.',
      });
    } catch {
      notification.error({
        title: 'Password reset failed',
        description: 'Could not send the password reset email',
      });
    } finally {
      setSubmitting(false);
    }
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
        <Form.Item
          label="Email"
          name="email"
          rules={[
            { required: true, message: 'Please enter your email' },
            { type: 'email', message: 'Please enter a valid email' },
          ]}
        >
          <Input type="email" autoComplete="email" placeholder="you@example.com" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block disabled={submitting}>
          {submitting ? 'Sending...' : 'Send reset link'}
        </Button>
      </Form>
    </AuthCard>
  );
}
