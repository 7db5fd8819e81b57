import { GoogleOutlined } from '@ant-design/icons';
import { App, Button, Divider, Form, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { authApi, GOOGLE_SIGN_IN_URL } from '../../../api/authApi';
import { getClientErrorMessage } from '../../../api/errors';
import { useSessionStore } from '../../../stores/sessionStore';

interface SignInValues {
  email: string;
  password: string;
}

export function SignInForm() {
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const signIn = useSessionStore((s) => s.signIn);
  const [submitting, setSubmitting] = useState(false);
  const [googleEnabled, setGoogleEnabled] = useState(false);

  useEffect(() => {
    let active = true;
    authApi
      .providers()
      .then((providers) => {
        if (active) setGoogleEnabled(providers.google);
      })
      // Without the providers answer the Google button simply stays hidden.
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, []);

  const googleFailed = searchParams.get('error') === 'google_login_failed';
  useEffect(() => {
    if (googleFailed) notification.error({ key: 'google-login-failed', title: 'Google login failed' });
  }, [googleFailed, notification]);

  const onFinish = async ({ email, password }: SignInValues) => {
    setSubmitting(true);
    try {
      const auth = await authApi.login(email.trim(), password);
      await signIn(auth);
      notification.success({ title: 'Logged in successfully', description: 'Welcome back!' });
      void navigate('/chat', { replace: true });
    } catch (error) {
      notification.error({ title: 'Login failed', description: getClientErrorMessage(error) });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <>
      <Form<SignInValues>
        name="signIn"
        layout="vertical"
        onFinish={(values) => void onFinish(values)}
        requiredMark={false}
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
