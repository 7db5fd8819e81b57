import { Form, Input } from 'antd';

/**
 * 'New Password' and 'Confirm New Password' (which must match), for the password tab and the reset
 * page. `name` is the form field that holds the new password.
 */
export function NewPasswordFields({ name }: { name: string }) {
  return (
    <>
      <Form.Item
        label="New Password"
        name={name}
        rules={[{ required: true, message: 'Please enter a new password' }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="Confirm New Password"
        name="confirmPassword"
        dependencies={[name]}
        rules={[
          { required: true, message: 'Please confirm your new password' },
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) =>
              !value || getFieldValue(name) === value
                ? Promise.resolve()
                : Promise.reject(new Error('Passwords do not match')),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
