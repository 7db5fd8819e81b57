import { GoogleOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import { GOOGLE_SIGN_IN_URL } from '../../../api/authApi';

/**
 * The sign-in form's parts that are not there when it first shows (loaded when one is): the
 * 'verify your email' notice after a refused sign-in, and the Google button once the server has said
 * Google sign-in is offered. antd's Alert and Button stay out of the sign-in page's first load.
 */
export function UnverifiedEmailAlert({
  message,
  email,
  resending,
  onResend,
}: {
  message: string;
  email: string;
  resending: boolean;
  onResend: () => void;
}) {
  return (
    <Alert
      type="warning"
      showIcon
      title={message}
      description={`Follow the link we sent to ${email}, then sign in.`}
      action={
        <Button size="small" onClick={onResend} loading={resending}>
          Resend verification email
        </Button>
      }
      style={{ marginBottom: 16 }}
    />
  );
}

export function GoogleSignInButton() {
  return (
    <Button block icon={<GoogleOutlined />} onClick={() => window.location.assign(GOOGLE_SIGN_IN_URL)}>
      Sign in with Google
    </Button>
  );
}
