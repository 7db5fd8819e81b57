import { MessageOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { Flex, Text, Title } from '../../../components/Plain';

/** Spec: the message area with no agent selected. */
export function NoAgentView() {
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      align="center"
      justify="center"
      gap="small"
      style={{ height: '100%', padding: token.paddingLG }}
    >
      <MessageOutlined style={{ fontSize: 40, color: token.colorTextTertiary }} />
      <Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading3 }}>
        Start a new conversation
      </Title>
      <Text type="secondary" style={{ textAlign: 'center' }}>
        Select an agent from the sidebar and click the &quot;New Chat&quot; button to begin chatting.
      </Text>
    </Flex>
  );
}
