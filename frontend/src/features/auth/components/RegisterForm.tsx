import { Alert, App, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { authApi } from '../../../api/authApi';
import { getErrorMessageOr } from '../../../api/errors';
import { useSessionStore } from '../../../stores/sessionStore';

interface RegisterValues {
  email?: string;
  password?: string;
  fullName?: string;
  companyName?: string;
}

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';

/** New account plus new company. (The invited mode, 'Complete Your Registration', comes with invitations.) */
export function RegisterForm() {
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const signIn = useSessionStore((s) => s.signIn);
  const [submitting, setSubmitting] = useState(false);
  const [validationError, setValidationError] = useState<string | null>(null);

  const onFinish = async (values: RegisterValues) => {
    const email = values.email?.trim() ?? '';
    const password = values.password ?? '';
    const fullName = values.fullName?.trim() ?? '';
    const companyName = values.companyName?.trim() ?? '';
    if (!email || !password || !fullName || !companyName) {
      setValidationError(REQUIRED_FIELDS_MESSAGE);
      return;
    }
    setValidationError(null);
    setSubmitting(true);
    try {
      const auth = await authApi.register({ email, password, fullName, companyName });
      await signIn(auth);
      notification.success({
        title: 'Registration successful',
        description: 'Your account has been created.',
      });
      void navigate('/chat', { replace: true });
    } catch (error) {
      notification.error({
        title: 'Registration failed',
        description: getErrorMessageOr(error, 'Please try again later'),
      });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <>
      <Form<RegisterValues> name="register" layout="vertical" onFinish={(values) => void onFinish(values)}>
        <Form.Item label="Email" name="email" required>
          <Input type="email" autoComplete="email" placeholder="you@example.com" />
        </Form.Item>
        <Form.Item label="Password" name="password" required>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item label="Full Name" name="fullName" required>
          <Input autoComplete="name" placeholder="Jane Doe" />
        </Form.Item>
        <Form.Item label="Company Name" name="companyName" required>
          <Input autoComplete="organization" placeholder="My Company" />
        </Form.Item>
        {validationError && (
          <Form.Item>
            <Alert type="error" showIcon title={validationError} />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block disabled={submitting}>
          {submitting ? 'Creating account...' : 'Create account'}
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        <Link to="/">Already have an account? Sign in</Link>
      </Typography.Paragraph>
    </>
  );
}
