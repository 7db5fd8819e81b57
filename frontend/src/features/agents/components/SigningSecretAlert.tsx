import { Alert, Typography } from 'antd';
import { useEffect, useRef } from 'react';

/** The signing secret, which the API returns once: shown with a copy button and a warning. */
export function SigningSecretAlert({ secret, onClose }: { secret: string; onClose?: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  // The save button is at the bottom of a scrolled dialog: bring the one-time secret into view.
  useEffect(() => ref.current?.scrollIntoView?.({ block: 'nearest' }), [secret]);
  return (
    <div ref={ref}>
      <Alert
        type="warning"
        showIcon
        closable={onClose ? { onClose, 'aria-label': 'Dismiss' } : undefined}
        title="Webhook signing secret"
        description={
          <>
            <Typography.Paragraph style={{ marginBottom: 4 }}>
              This secret is shown only once. Copy it now and use it to verify the webhook-signature header.
            </Typography.Paragraph>
            <Typography.Text
              code
              copyable={{ text: secret, tooltips: ['Copy secret', 'Copied'] }}
              data-testid="signing-secret"
            >
              {secret}
            </Typography.Text>
          </>
        }
      />
    </div>
  );
}
