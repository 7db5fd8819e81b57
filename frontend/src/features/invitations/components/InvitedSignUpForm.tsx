import { Form, Input } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { InvitationLookup } from '../../../api/contracts';
import { CheckEmailView } from '../../auth/components/CheckEmailView';
import { REQUIRED_FIELDS_MESSAGE } from '../../auth/components/RegisterForm';
import { SignUpSubmit } from '../../auth/components/SignUpSubmit';
import { useInvitationAcceptance } from '../hooks/useInvitationAcceptance';

export const PASSWORD_REQUIRED_MESSAGE = 'Please enter a password';

interface SignUpValues {
  firstName?: string;
  lastName?: string;
  password?: string;
}

interface InvitedSignUpFormProps {
  token: string;
  invitation: InvitationLookup;
  redirect: string | null;
  /**
   * 'invitation' (the invitation page's form): every field missing says 'Please fill in all required
   * fields'; 'register' (/register?token=): a missing password says 'Please enter a password'.
   */
  mode: 'invitation' | 'register';
  /** The token turned out invalid meanwhile. */
  onInvalid: () => void;
  /** Called as the sign-up starts: the account it signs in has joined already (no accept after it). */
  onStart?: () => void;
}

/** Sign-up for the invited address: the email is fixed; first name, last name and password. */
export function InvitedSignUpForm({
  token,
  invitation,
  redirect,
  mode,
  onInvalid,
  onStart,
}: InvitedSignUpFormProps) {
  const navigate = useNavigate();
  const { register } = useInvitationAcceptance();
  const [submitting, setSubmitting] = useState(false);
  const [validationError, setValidationError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onFinish = async (values: SignUpValues) => {
    const firstName = values.firstName?.trim() ?? '';
    const lastName = values.lastName?.trim() ?? '';
    const password = values.password ?? '';
    if (mode === 'register' && !password) {
      setValidationError(PASSWORD_REQUIRED_MESSAGE);
      return;
    }
    if (!firstName || !lastName || !password) {
      setValidationError(REQUIRED_FIELDS_MESSAGE);
      return;
    }
    setValidationError(null);
    setSubmitting(true);
    onStart?.();
    const outcome = await register({ token, firstName, lastName, password }, invitation, redirect);
    setSubmitting(false);
    if (outcome.kind === 'joined') void navigate(outcome.to, { replace: true });
    if (outcome.kind === 'invalid') onInvalid();
    if (outcome.kind === 'check-email') setSentTo(outcome.email);
  };

  if (sentTo) return <CheckEmailView email={sentTo} />;

  return (
    <Form<SignUpValues>
      name={`invited-${mode}`}
      layout="vertical"
      onFinish={(values) => void onFinish(values)}
    >
      <Form.Item label="Email" htmlFor={`invited-${mode}-email`}>
        <Input id={`invited-${mode}-email`} type="email" value={invitation.email} readOnly disabled />
      </Form.Item>
      <Form.Item label="First Name" name="firstName" required>
        <Input autoComplete="given-name" />
      </Form.Item>
      <Form.Item label="Last Name" name="lastName" required>
        <Input autoComplete="family-name" />
      </Form.Item>
      <Form.Item label="Password" name="password" required>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <SignUpSubmit
        validationError={validationError}
        submitting={submitting}
        label="Create account and join"
      />
    </Form>
  );
}
