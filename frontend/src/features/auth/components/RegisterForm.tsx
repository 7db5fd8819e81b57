import { Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAuthActions } from '../hooks/useAuthActions';
import { SignUpSubmit } from './SignUpSubmit';

interface RegisterValues {
  email?: string;
  password?: string;
  fullName?: string;
  companyName?: string;
}

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';

interface RegisterFormProps {
  /** The installation requires a verified email: the account waits for the link sent to `email`. */
  onVerificationRequired: (email: string) => void;
}

/** New account plus new company. (The invited mode, 'Complete Your Registration', comes with invitations.) */
export function RegisterForm({ onVerificationRequired }: RegisterFormProps) {
  const navigate = useNavigate();
  const { register } = useAuthActions();
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
    const outcome = await register({ email, password, fullName, companyName });
    setSubmitting(false);
    if (outcome.kind === 'signed-in') void navigate('/chat', { replace: true });
    if (outcome.kind === 'verification-required') onVerificationRequired(outcome.email);
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
        <SignUpSubmit validationError={validationError} submitting={submitting} label="Create account" />
      </Form>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        <Link to="/">Already have an account? Sign in</Link>
      </Typography.Paragraph>
    </>
  );
}
