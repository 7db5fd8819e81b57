import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Flex, Text, Title } from './Plain';

describe('Plain Flex and Typography (antd classes, no antd component)', () => {
  it('draws Flex with the classes antd gives its props, a numeric gap as a style', () => {
    render(
      <>
        <Flex vertical gap="small" align="flex-start" justify="space-between" wrap data-testid="a">
          x
        </Flex>
        <Flex component="ul" gap={2} className="mine" style={{ padding: 1 }} data-testid="b">
          <li>y</li>
        </Flex>
      </>,
    );
    expect(screen.getByTestId('a')).toHaveClass(
      'ant-flex',
      'ant-flex-vertical',
      'ant-flex-gap-small',
      'ant-flex-align-flex-start',
      'ant-flex-justify-space-between',
      'ant-flex-wrap-wrap',
    );
    const list = screen.getByTestId('b');
    expect(list.tagName).toBe('UL');
    expect(list).toHaveClass('ant-flex', 'mine');
    expect(list).not.toHaveClass('ant-flex-vertical');
    expect(list).toHaveStyle({ gap: '2px', padding: '1px' });
  });

  it('draws Text as antd does: type, strong and a CSS ellipsis', () => {
    render(
      <Text type="secondary" strong ellipsis data-testid="t">
        Chat with Assistant
      </Text>,
    );
    const text = screen.getByTestId('t');
    expect(text.tagName).toBe('SPAN');
    expect(text).toHaveClass(
      'ant-typography',
      'ant-typography-secondary',
      'ant-typography-ellipsis',
      'ant-typography-ellipsis-single-line',
    );
    expect(text.firstElementChild?.tagName).toBe('STRONG');
    expect(text).toHaveTextContent('Chat with Assistant');
  });

  it('draws Title as a heading of its level', () => {
    render(<Title level={4}>Switchboard</Title>);
    expect(screen.getByRole('heading', { level: 4, name: 'Switchboard' })).toHaveClass('ant-typography');
  });
});
