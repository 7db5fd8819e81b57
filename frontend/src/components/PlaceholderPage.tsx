import { Button, Layout, Result } from 'antd';
import { useNavigate } from 'react-router-dom';

/** A titled page for screens that later issues fill in. */
export function PlaceholderPage({ title, subTitle }: { title: string; subTitle: string }) {
  const navigate = useNavigate();
  return (
    <Layout style={{ minHeight: '100vh', justifyContent: 'center' }}>
      <main>
        <Result
          status="info"
          title={<h1 style={{ margin: 0, font: 'inherit' }}>{title}</h1>}
          subTitle={subTitle}
          extra={<Button onClick={() => void navigate('/chat')}>Back to App</Button>}
        />
      </main>
    </Layout>
  );
}
