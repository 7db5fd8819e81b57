import { GoogleOutlined } from '@ant-design/icons';
import { Alert, Button, Divider, Form, Input, Typography } from 'antd';
import { App } from '../../../app/appApi';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { GOOGLE_SIGN_IN_URL } from '../../../api/authApi';
import { safeRedirectPath } from '../../../app/safeRedirect';
import { useAuthActions } from '../hooks/useAuthActions';
import { useGoogleSignInEnabled } from '../hooks/useGoogleSignInEnabled';
import { EmailField } from './EmailField';

interface SignInValues {
  email: string;
  password: string;
}

export const EMAIL_NOT_VERIFIED_MESSAGE = 'Please verify your email first';

/** What the Google callback's `?error=` means, for the 'Google login failed' toast. */
const GOOGLE_ERRORS: Record<string, string | undefined> = {
  google_login_failed: undefined,
  google_account_unverified:
    'An account with this email already exists, but its address is not verified yet. Sign in with your password (or reset it) first; then Google sign-in will work.',
};

export function SignInForm() {
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { signIn, resendVerification } = useAuthActions();
  const [submitting, setSubmitting] = useState(false);
  const [resending, setResending] = useState(false);
  /** The address whose sign-in was refused until it is verified. */
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const googleEnabled = useGoogleSignInEnabled();

  const googleError = searchParams.get('error');
  useEffect(() => {
    if (!googleError || !(googleError in GOOGLE_ERRORS)) return;
    notification.error({
      key: 'google-login-failed',
      title: 'Google login failed',
      description: GOOGLE_ERRORS[googleError],
    });
  }, [googleError, notification]);

  const onFinish = async ({ email, password }: SignInValues) => {
    setSubmitting(true);
    setUnverifiedEmail(null);
    const outcome = await signIn(email.trim(), password);
    setSubmitting(false);
    // `redirect`: back to where sign-in was asked for (an invitation, say), only ever a path of this site.
    if (outcome === 'signed-in')
      void navigate(safeRedirectPath(searchParams.get('redirect')) ?? '/chat', { replace: true });
    if (outcome === 'email-not-verified') setUnverifiedEmail(email.trim());
  };

  const resend = async () => {
    if (!unverifiedEmail) return;
    setResending(true);
    await resendVerification(unverifiedEmail);
    setResending(false);
  };

  return (
    <>
      {unverifiedEmail && (
        <Alert
          type="warning"
          showIcon
          title={EMAIL_NOT_VERIFIED_MESSAGE}
          description={`Follow the link we sent to ${unverifiedEmail}, then sign in.`}
          action={
            <Button size="small" onClick={() => void resend()} loading={resending}>
              Resend verification email
            </Button>
          }
          style={{ marginBottom: 16 }}
        />
      )}
      <Form<SignInValues>
        name="signIn"
        layout="vertical"
        onFinish={(values) => void onFinish(values)}
        requiredMark={false}
      >
        <EmailField />
        <Form.Item
          label="Password"
          name="password"
          rules={[{ required: true, message: 'Please enter your password' }]}
          extra={<Link to="/forgot-password">Forgot password?</Link>}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block disabled={submitting}>
          {submitting ? 'Signing in...' : 'Sign in'}
        </Button>
      </Form>
      {googleEnabled && (
        <>
          <Divider plain>or</Divider>
          <Button block icon={<GoogleOutlined />} onClick={() => window.location.assign(GOOGLE_SIGN_IN_URL)}>
            Sign in with Google
          </Button>
        </>
      )}
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        Don&apos;t have an account? <Link to="/register">Sign up</Link>
      </Typography.Paragraph>
    </>
  );
}
