import {
  createElement,
  type CSSProperties,
  type ElementType,
  type HTMLAttributes,
  type ReactNode,
} from 'react';
import './Plain.css';

/*
 * antd's Flex and Typography as plain elements with antd's class names (antd.css draws them, from its
 * CSS variables), for the screens that render many of them at load: the chat's list rows and message
 * bubbles. antd's components each run their style and context hooks on every render, and an
 * `ellipsis` text measures itself after rendering (a forced layout per row) and watches its size.
 * Only what this app uses of their props is here.
 */

const classes = (...names: Array<string | false | null | undefined>) => names.filter(Boolean).join(' ');

const GAP_CLASS = { small: 'ant-flex-gap-small', middle: 'ant-flex-gap-middle', large: 'ant-flex-gap-large' };

export interface FlexProps extends HTMLAttributes<HTMLElement> {
  vertical?: boolean;
  gap?: 'small' | 'middle' | 'large' | number;
  align?: CSSProperties['alignItems'];
  justify?: CSSProperties['justifyContent'];
  wrap?: boolean;
  /** The element drawn (antd's `component`): a `div` unless told. */
  component?: ElementType;
  children?: ReactNode;
}

/** antd's `<Flex>`: a flex box with its classes for direction, gap, alignment and wrapping. */
export function Flex({
  vertical,
  gap,
  align,
  justify,
  wrap,
  component = 'div',
  className,
  style,
  ...rest
}: FlexProps) {
  return createElement(component, {
    ...rest,
    className: classes(
      'ant-flex',
      vertical && 'ant-flex-vertical',
      typeof gap === 'string' && GAP_CLASS[gap],
      align && `ant-flex-align-${align}`,
      justify && `ant-flex-justify-${justify}`,
      wrap && 'ant-flex-wrap-wrap',
      className,
    ),
    style: typeof gap === 'number' ? { gap, ...style } : style,
  });
}

export interface TextProps extends HTMLAttributes<HTMLSpanElement> {
  type?: 'secondary' | 'success' | 'warning' | 'danger';
  strong?: boolean;
  italic?: boolean;
  /** One line, cut with '…' by CSS (antd's `ellipsis`, without its measuring or tooltip). */
  ellipsis?: boolean;
  children?: ReactNode;
}

/** antd's `<Typography.Text>`. */
export function Text({ type, strong, italic, ellipsis, className, children, ...rest }: TextProps) {
  let content = children;
  if (italic) content = <i>{content}</i>;
  if (strong) content = <strong>{content}</strong>;
  return (
    <span
      {...rest}
      className={classes(
        'ant-typography',
        type && `ant-typography-${type}`,
        ellipsis && 'ant-typography-ellipsis ant-typography-ellipsis-single-line',
        className,
      )}
    >
      {content}
    </span>
  );
}

export interface TitleProps extends HTMLAttributes<HTMLHeadingElement> {
  level?: 1 | 2 | 3 | 4 | 5;
  children?: ReactNode;
}

/** antd's `<Typography.Title>`: a heading of that level. */
export function Title({ level = 1, className, ...rest }: TitleProps) {
  return createElement(`h${level}`, { ...rest, className: classes('ant-typography', className) });
}
