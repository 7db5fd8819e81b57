import { theme } from 'antd';
import { Flex } from '../../../components/Plain';

/** Spec: three dots, the second and third delayed by 0.2 s and 0.4 s. */
export const TYPING_DOT_DELAYS = ['0s', '0.2s', '0.4s'];

export function TypingIndicator() {
  const { token } = theme.useToken();
  return (
    <Flex
      role="status"
      aria-label="Agent is typing"
      data-testid="typing-indicator"
      align="center"
      gap={4}
      style={{
        display: 'inline-flex',
        padding: `${token.paddingSM}px ${token.padding}px`,
        background: token.colorFillSecondary,
        borderRadius: token.borderRadiusLG,
      }}
    >
      {TYPING_DOT_DELAYS.map((delay) => (
        <span
          key={delay}
          className="sb-typing-dot"
          style={{ animationDelay: delay, background: token.colorTextTertiary }}
        />
      ))}
    </Flex>
  );
}
