import { Form, Input } from 'antd';

/** The required 'Email' field of the sign-in and password screens, with their validation messages. */
export function EmailField() {
  return (
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
  );
}
