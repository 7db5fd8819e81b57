import { MailOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { Link } from 'react-router-dom';

/** After a registration that waits for its email link: where the link went, and the way back. */
export function CheckEmailView({ email }: { email: string }) {
  return (
    <Result
      icon={<MailOutlined aria-hidden />}
      title="Check your email"
      subTitle={`We sent a confirmation link to ${email}. Follow it to confirm your account, then sign in.`}
      extra={<Link to="/">Back to sign in</Link>}
    />
  );
}
