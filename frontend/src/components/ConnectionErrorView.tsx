import { Button, Layout, Result } from 'antd';

export function ConnectionErrorView({ onRetry }: { onRetry?: () => void }) {
  return (
    <Layout style={{ minHeight: '100vh', justifyContent: 'center' }}>
      <main>
        <Result
          status="warning"
          title={<h1 style={{ margin: 0, font: 'inherit' }}>Connection Error</h1>}
          subTitle="We could not reach the server. Please check your connection and try again."
          extra={
            <Button type="primary" onClick={onRetry ?? (() => window.location.reload())}>
              Retry Connection
            </Button>
          }
        />
      </main>
    </Layout>
  );
}
