import { useEffect, useMemo, useState } from 'react';
import type { WebhookTestResult } from '../../../api/contracts';
import { webhookTestApi } from '../../../api/webhookTestApi';
import { useActionToasts } from '../../../hooks/useActionToasts';

export interface WebhookTest {
  /** The address the tester sends to ('' until it has loaded). */
  url: string;
  result: WebhookTestResult | null;
  sending: boolean;
  send: (message: string) => Promise<void>;
}

const MESSAGE_REQUIRED = ['Message Required', 'Please enter a message to send to the webhook'] as const;

/** The webhook tester: loads its address, sends a message, keeps the last result. */
export function useWebhookTest(): WebhookTest {
  const { failure, refusal, dismiss } = useActionToasts();
  const [url, setUrl] = useState('');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<WebhookTestResult | null>(null);

  useEffect(() => {
    let cancelled = false;
    webhookTestApi.address().then(
      (answer) => {
        if (!cancelled) setUrl(answer.url);
      },
      (error: unknown) => failure('Error', error),
    );
    return () => {
      cancelled = true;
    };
  }, [failure]);

  const send = useMemo(
    () => async (message: string) => {
      if (!message.trim()) {
        refusal(...MESSAGE_REQUIRED);
        return;
      }
      // The refusal no longer applies once a message goes out.
      dismiss(...MESSAGE_REQUIRED);
      setSending(true);
      try {
        setResult(await webhookTestApi.send(message));
      } catch (error) {
        failure('Error', error);
      } finally {
        setSending(false);
      }
    },
    [failure, refusal, dismiss],
  );

  return { url, result, sending, send };
}
