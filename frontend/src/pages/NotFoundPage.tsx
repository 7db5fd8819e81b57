import { Layout, Result } from 'antd';
import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <Layout style={{ minHeight: '100vh', justifyContent: 'center' }}>
      <main>
        <Result
          status="404"
          title={<h1 style={{ margin: 0, font: 'inherit' }}>404</h1>}
          subTitle="Oops! Page not found"
          extra={<Link to="/">Return to Home</Link>}
        />
      </main>
    </Layout>
  );
}
