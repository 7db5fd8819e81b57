import { Alert, Flex, Spin } from 'antd';

/** A settings page before its settings are here: a spinner, or why they could not be loaded. */
export function SettingsLoadStatus({ status, what }: { status: 'loading' | 'failed'; what: string }) {
  if (status === 'loading') {
    return (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin aria-label={`Loading ${what}`} />
      </Flex>
    );
  }
  return <Alert type="error" showIcon title={`Failed to load ${what}. Please refresh and try again.`} />;
}
