import { Alert, Button, Form } from 'antd';

/** The end of a sign-up form: why it was refused (when it was), then its submit button. */
export function SignUpSubmit({
  validationError,
  submitting,
  label,
}: {
  validationError: string | null;
  submitting: boolean;
  label: string;
}) {
  return (
    <>
      {validationError && (
        <Form.Item>
          <Alert type="error" showIcon title={validationError} />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" block disabled={submitting}>
        {submitting ? 'Creating account...' : label}
      </Button>
    </>
  );
}
