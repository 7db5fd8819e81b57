import { Layout, Result } from 'antd';
import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <Layout style={{ minHeight: '100vh', justifyContent: 'center' }}>
      <Result
        status="404"
        title="404"
        subTitle="Oops! Page not found"
        extra={<Link to="/">Return to Home</Link>}
      />
    </Layout>
  );
}
