import { Button, Flex, Result, Spin, Typography } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useSessionStore } from '../../../stores/sessionStore';
import type { EmailLinkState } from '../hooks/useEmailLink';

interface EmailLinkResultProps {
  state: EmailLinkState;
  checkingText: string;
  successTitle: string;
  successText: string;
}

/** The outcome of an emailed link: a spinner, then success with Continue, or the error with Return to Home. */
export function EmailLinkResult({ state, checkingText, successTitle, successText }: EmailLinkResultProps) {
  const navigate = useNavigate();
  const signedIn = useSessionStore((s) => s.status === 'authenticated');

  if (state.status === 'checking') {
    return (
      <Flex vertical align="center" gap="middle" role="status" style={{ padding: 24 }}>
        <Spin size="large" />
        <Typography.Text>{checkingText}</Typography.Text>
      </Flex>
    );
  }
  if (state.status === 'failed') {
    return (
      <Result
        status="error"
        title={state.message}
        extra={
          <Button type="primary" onClick={() => void navigate('/', { replace: true })}>
            Return to Home
          </Button>
        }
      />
    );
  }
  return (
    <Result
      status="success"
      title={successTitle}
      subTitle={successText}
      extra={
        <Button type="primary" onClick={() => void navigate(signedIn ? '/chat' : '/', { replace: true })}>
          {signedIn ? 'Continue to chat' : 'Continue to sign in'}
        </Button>
      }
    />
  );
}
