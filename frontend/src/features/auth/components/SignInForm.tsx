import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { App } from '../../../hooks/appApi';
import { safeRedirectPath } from '../../../lib/safeRedirect';
import { ssoSignInUrl } from '../../../api/authApi';
import { useAuthActions } from '../hooks/useAuthActions';
import { useSsoOffered } from '../hooks/useSsoOffered';
import { useGoogleSignInEnabled } from '../hooks/useGoogleSignInEnabled';
import { EyeIcon, EyeInvisibleIcon } from './PasswordEyeIcons';
import '../../../components/nativeInput.css';
import './SignInForm.css';

// Shown only after a sign-in refused until the address is verified, or once Google is offered: not
// loaded with the page (antd's Alert and Button).
const UnverifiedEmailAlert = lazy(() =>
  import('./SignInExtras').then((m) => ({ default: m.UnverifiedEmailAlert })),
);
const GoogleSignInButton = lazy(() =>
  import('./SignInExtras').then((m) => ({ default: m.GoogleSignInButton })),
);

export const EMAIL_NOT_VERIFIED_MESSAGE = 'Please verify your email first';

/** What the Google callback's `?error=` means, for the 'Google login failed' toast. */
const GOOGLE_ERRORS: Record<string, string | undefined> = {
  google_login_failed: undefined,
  google_account_unverified:
    'An account with this email already exists, but its address is not verified yet. We have emailed you a link to choose its password: follow it, then sign in with Google.',
};

/** What the single sign-on callback's `?error=` means, for the 'Single sign-on failed' toast. */
export const SSO_ERRORS: Record<string, string> = {
  sso_unavailable: 'Single sign-on is not set up for this email address.',
  sso_provider_failed:
    "Your company's identity provider could not be reached or is not set up correctly. Please try again later or contact your administrator.",
  sso_state: 'The sign-in took too long or was started in another browser tab. Please try again.',
  sso_code_rejected:
    'Your identity provider did not complete the sign-in (it may have expired or been used already). Please try again.',
  sso_email_unverified: 'Your identity provider did not confirm your email address.',
  sso_identity_changed:
    'This email is linked to another account at your identity provider. Please contact your administrator.',
  sso_account_unverified:
    'An account with this email already exists, but its address is not verified yet. We have emailed you a link to choose its password: follow it, then continue with SSO.',
  sso_no_access:
    'Your company has not given you access to Switchboard yet. Ask an administrator to invite you.',
  sso_account_disabled: 'This account has been disabled. Please contact your administrator.',
};

/** antd Form's `type: 'email'` rule (async-validator's pattern and length limit), kept as it was. */
const EMAIL_PATTERN =
  /^(([^<>()[\]\\.,;:\s@"]+(\.[^<>()[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]+\.)+[a-zA-Z\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]{2,}))$/;

type Field = 'email' | 'password';
type Values = Record<Field, string>;

/** The fields' rules and messages (the same as the antd Form's: required, then a valid address). */
function validate(field: Field, value: string): string | null {
  if (field === 'email') {
    if (value === '') return 'Please enter your email';
    if (value.length > 320 || !EMAIL_PATTERN.test(value)) return 'Please enter a valid email';
    return null;
  }
  return value === '' ? 'Please enter your password' : null;
}

/**
 * The sign-in form, built on the browser's own form, label and input elements drawn like antd's
 * (SignInForm.css, antd's CSS variables): antd's Form and Input are about 40 KB gzip of JavaScript the
 * first screen of a signed-out visitor would otherwise wait for. It behaves as the antd form did: a
 * field is checked as it changes and all are on submit, and each message is tied to its field.
 */
export function SignInForm() {
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { signIn, resendVerification } = useAuthActions();
  const [values, setValues] = useState<Values>({ email: '', password: '' });
  /** A field's message, once the field has changed or a submit has checked it. */
  const [errors, setErrors] = useState<Partial<Record<Field, string | null>>>({});
  const [passwordVisible, setPasswordVisible] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [resending, setResending] = useState(false);
  /** The address whose sign-in was refused until it is verified. */
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const googleEnabled = useGoogleSignInEnabled();
  const ssoEmail = useSsoOffered(validate('email', values.email) ? null : values.email.trim());

  const googleError = searchParams.get('error');
  useEffect(() => {
    if (!googleError || !(googleError in SSO_ERRORS)) return;
    notification.error({
      key: 'sso-login-failed',
      title: 'Single sign-on failed',
      description: SSO_ERRORS[googleError],
    });
  }, [googleError, notification]);
  useEffect(() => {
    if (!googleError || !(googleError in GOOGLE_ERRORS)) return;
    notification.error({
      key: 'google-login-failed',
      title: 'Google login failed',
      description: GOOGLE_ERRORS[googleError],
    });
  }, [googleError, notification]);

  const change = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: validate(field, value) }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = { email: validate('email', values.email), password: validate('password', values.password) };
    setErrors(found);
    const invalid = (['email', 'password'] as const).find((field) => found[field]);
    if (invalid) {
      // The first field to put right gets focus: its label and message are read out with it.
      const input = event.currentTarget.elements.namedItem(invalid);
      if (input instanceof HTMLInputElement) input.focus();
      return;
    }
    const email = values.email.trim();
    setSubmitting(true);
    setUnverifiedEmail(null);
    const outcome = await signIn(email, values.password);
    setSubmitting(false);
    // `redirect`: back to where sign-in was asked for (an invitation, say), only ever a path of this site.
    if (outcome === 'signed-in')
      void navigate(safeRedirectPath(searchParams.get('redirect')) ?? '/chat', { replace: true });
    if (outcome === 'email-not-verified') setUnverifiedEmail(email);
  };

  const resend = async () => {
    if (!unverifiedEmail) return;
    setResending(true);
    await resendVerification(unverifiedEmail);
    setResending(false);
  };

  /** The props that tie a field to its label, its message and its help text. */
  const fieldProps = (field: Field, extra?: string) => {
    const error = errors[field];
    const describedBy = [error ? `signIn_${field}_help` : null, extra].filter(Boolean).join(' ');
    return {
      id: `signIn_${field}`,
      name: field,
      value: values[field],
      onChange: (event: { target: { value: string } }) => change(field, event.target.value),
      'aria-required': true,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': describedBy || undefined,
    };
  };
  const fieldClass = (field: Field) => (errors[field] ? 'sb-field sb-field-with-help' : 'sb-field');
  const inputClass = (field: Field) => (errors[field] ? 'sb-input sb-input-error' : 'sb-input');
  const message = (field: Field) =>
    errors[field] ? (
      <div id={`signIn_${field}_help`} className="sb-field-error">
        {errors[field]}
      </div>
    ) : null;

  return (
    <>
      {unverifiedEmail && (
        <Suspense fallback={null}>
          <UnverifiedEmailAlert
            message={EMAIL_NOT_VERIFIED_MESSAGE}
            email={unverifiedEmail}
            resending={resending}
            onResend={() => void resend()}
          />
        </Suspense>
      )}
      <form id="signIn" className="sb-auth-form" onSubmit={(event) => void onSubmit(event)}>
        <div className={fieldClass('email')}>
          <label htmlFor="signIn_email" className="sb-field-label">
            Email
          </label>
          <input
            {...fieldProps('email')}
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            className={inputClass('email')}
          />
          <div className="sb-field-additional" style={{ minHeight: errors.email ? 24 : undefined }}>
            {message('email')}
          </div>
        </div>
        {/* Email first: an address at a domain whose company signs in with its own provider. */}
        {ssoEmail && (
          <div className="sb-sso-offer" role="status">
            <p>Your company signs in with single sign-on.</p>
            <button
              type="button"
              className="sb-primary-button"
              onClick={() => window.location.assign(ssoSignInUrl(ssoEmail))}
            >
              Continue with SSO
            </button>
          </div>
        )}
        <div className={fieldClass('password')}>
          <label htmlFor="signIn_password" className="sb-field-label">
            Password
          </label>
          {/* The box is the wrapper (antd's affix look): the input and the show/hide switch inside it. */}
          <span className={`${inputClass('password')} sb-input-affix`}>
            <input
              {...fieldProps('password', 'signIn_password_extra')}
              type={passwordVisible ? 'text' : 'password'}
              autoComplete="current-password"
            />
            <button
              type="button"
              className="sb-password-toggle"
              aria-label="Show password"
              aria-pressed={passwordVisible}
              aria-controls="signIn_password"
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => setPasswordVisible((visible) => !visible)}
            >
              {passwordVisible ? <EyeIcon /> : <EyeInvisibleIcon />}
            </button>
          </span>
          <div className="sb-field-additional" style={{ minHeight: errors.password ? 48 : 24 }}>
            {message('password')}
            <div id="signIn_password_extra" className="sb-field-extra">
              <Link to="/forgot-password">Forgot password?</Link>
            </div>
          </div>
        </div>
        {/* antd's primary block Button, drawn natively (SignInForm.css): antd's Button is ~10 KB gzip of
            the page's first load. */}
        <button type="submit" className="sb-primary-button" disabled={submitting}>
          {submitting ? 'Signing in...' : 'Sign in'}
        </button>
      </form>
      {googleEnabled && (
        <>
          <div className="sb-auth-divider" role="separator">
            <span>or</span>
          </div>
          <Suspense fallback={null}>
            <GoogleSignInButton />
          </Suspense>
        </>
      )}
      <p className="sb-auth-footer">
        Don&apos;t have an account? <Link to="/register">Sign up</Link>
      </p>
    </>
  );
}
