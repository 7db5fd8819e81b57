import { Button, Flex, Result, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { InvitationLookup } from '../../../api/contracts';
import { ConnectionErrorView } from '../../../components/ConnectionErrorView';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { AuthCard } from '../../auth/components/AuthCard';
import { useSessionStore } from '../../../stores/sessionStore';
import { useInvitationAcceptance } from '../hooks/useInvitationAcceptance';
import { useInvitationLookup } from '../hooks/useInvitationLookup';
import { InvitedSignUpForm } from './InvitedSignUpForm';

/** The sign-in screen, coming back to this very invitation afterwards. */
export function signInPathBackTo(token: string, redirect: string | null): string {
  const back = `/invitation?token=${encodeURIComponent(token)}${redirect ? `&redirect=${encodeURIComponent(redirect)}` : ''}`;
  return `/?redirect=${encodeURIComponent(back)}`;
}

function invitedLine(invitation: InvitationLookup): string {
  const role = invitation.role === 'admin' ? 'an admin' : 'a user';
  return invitation.inviterName
    ? `${invitation.inviterName} has invited you to join ${invitation.companyName} as ${role}.`
    : `You have been invited to join ${invitation.companyName} as ${role}.`;
}

export function InvalidInvitationView() {
  const navigate = useNavigate();
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh', padding: 16 }}>
      <Result
        status="warning"
        title={<h1 style={{ margin: 0, font: 'inherit' }}>Invalid Invitation</h1>}
        subTitle="The invitation is invalid or has expired."
        extra={
          <Button type="primary" onClick={() => void navigate('/')}>
            Return to Home
          </Button>
        }
      />
    </Flex>
  );
}

/**
 * /invitation?token=&redirect=: a spinner, then 'Accepting Invitation' (signed in with the invited
 * address), 'Company Invitation' (sign up, or sign in for an existing account), or 'Invalid Invitation'.
 */
export function InvitationFlow() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const redirect = searchParams.get('redirect');
  const sessionStatus = useSessionStore((s) => s.status);
  const userEmail = useSessionStore((s) => s.user?.email ?? null);
  const lookup = useInvitationLookup(token);
  const { refusal } = useActionToasts();
  const { accept } = useInvitationAcceptance();
  const [invalidated, setInvalidated] = useState(false);
  const acceptedToken = useRef<string | null>(null);
  /** The accept failed for a reason other than the invitation (network, server): offer to try again. */
  const [acceptAttempt, setAcceptAttempt] = useState(0);
  const [acceptFailed, setAcceptFailed] = useState(false);
  // Signing up through the form joins the company itself: the session it starts must not accept again.
  const [signingUp, setSigningUp] = useState(false);

  const sessionKnown = sessionStatus === 'authenticated' || sessionStatus === 'unauthenticated';
  const invitation = lookup.status === 'valid' ? lookup.invitation : null;
  const signedIn = sessionStatus === 'authenticated';
  const emailMatches =
    !!invitation && !!userEmail && userEmail.trim().toLowerCase() === invitation.email.toLowerCase();

  useEffect(() => {
    if (token) return;
    refusal('Invalid invitation', 'No invitation token provided.');
    void navigate('/', { replace: true });
  }, [token, refusal, navigate]);

  useEffect(() => {
    if (!token || !invitation || !signedIn || signingUp) return;
    if (!emailMatches) {
      refusal('Email mismatch', 'Please sign in with the email address the invitation was sent to.');
      void navigate('/', { replace: true });
      return;
    }
    const attempt = `${token}#${acceptAttempt}`;
    if (acceptedToken.current === attempt) return;
    acceptedToken.current = attempt;
    void accept(token, redirect).then((outcome) => {
      if (outcome.kind === 'joined') void navigate(outcome.to, { replace: true });
      else if (outcome.kind === 'invalid') void navigate('/', { replace: true });
      else setAcceptFailed(true);
    });
  }, [
    token,
    invitation,
    signedIn,
    signingUp,
    emailMatches,
    redirect,
    accept,
    refusal,
    navigate,
    acceptAttempt,
  ]);

  if (sessionStatus === 'error') return <ConnectionErrorView />;
  if (!token || !sessionKnown || lookup.status === 'loading')
    return (
      <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
        <Spin size="large" description="Loading invitation..." />
      </Flex>
    );
  if (invalidated || !invitation) return <InvalidInvitationView />;

  if (signedIn && !signingUp) {
    return (
      <AuthCard title="Accepting Invitation" description={invitedLine(invitation)}>
        {acceptFailed ? (
          <Button
            type="primary"
            block
            onClick={() => {
              setAcceptFailed(false);
              setAcceptAttempt((n) => n + 1);
            }}
          >
            Try again
          </Button>
        ) : (
          <Flex justify="center">
            <Spin description={`Joining ${invitation.companyName}...`}>
              <div style={{ height: 48, width: 200 }} />
            </Spin>
          </Flex>
        )}
      </AuthCard>
    );
  }

  const signIn = signInPathBackTo(token, redirect);
  return (
    <AuthCard title="Company Invitation" description={invitedLine(invitation)}>
      {invitation.accountExists ? (
        <Flex vertical gap="middle">
          <Typography.Paragraph style={{ margin: 0 }}>
            An account with {invitation.email} already exists. Sign in to accept the invitation.
          </Typography.Paragraph>
          <Link to={signIn}>
            <Button type="primary" block>
              Sign in to accept
            </Button>
          </Link>
        </Flex>
      ) : (
        <>
          <InvitedSignUpForm
            token={token}
            invitation={invitation}
            redirect={redirect}
            mode="invitation"
            onInvalid={() => setInvalidated(true)}
            onStart={() => setSigningUp(true)}
          />
          <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
            <Link to={signIn}>Already have an account? Sign in</Link>
          </Typography.Paragraph>
        </>
      )}
    </AuthCard>
  );
}
