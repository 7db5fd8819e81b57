import { Button, Layout, Result } from 'antd';

export function ConnectionErrorView({ onRetry }: { onRetry?: () => void }) {
  return (
    <Layout style={{ minHeight: '100vh', justifyContent: 'center' }}>
      <Result
        status="warning"
        title="Connection Error"
        subTitle="We could not reach the server. Please check your connection and try again."
        extra={
          <Button type="primary" onClick={onRetry ?? (() => window.location.reload())}>
            Retry Connection
          </Button>
        }
      />
    </Layout>
  );
}
