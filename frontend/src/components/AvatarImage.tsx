import { useState, type CSSProperties, type ReactNode } from 'react';
import './AvatarImage.css';

export const PLACEHOLDER_AVATAR = '/placeholder.svg';

export interface AvatarImageProps {
  src?: string | null;
  /** Used for the alt text and, with fallback="initial", for the letter. */
  name?: string | null;
  size?: number | 'small' | 'default' | 'large';
  /**
   * What shows when there is no image or it fails to load: the placeholder image (default), or the first
   * letter of the name ('U' when there is no name).
   */
  fallback?: 'placeholder' | 'initial';
}

export function initialOf(name: string | null | undefined): string {
  const trimmed = name?.trim() ?? '';
  return trimmed ? trimmed.charAt(0).toUpperCase() : 'U';
}

const SIZE_CLASS = { small: ' ant-avatar-sm', default: '', large: ' ant-avatar-lg' } as const;

/**
 * antd's Avatar as plain elements with its class names (antd.css draws them, from the variables in
 * AvatarImage.css):
 * antd's component measures a text child after every render to scale it (a forced layout on the first
 * screen, once per avatar), which a single letter never needs, and it brought ResizeObserver code into
 * the chat's first load.
 */
function AvatarFrame({
  size,
  image,
  children,
}: {
  size: AvatarImageProps['size'];
  image: boolean;
  children: ReactNode;
}) {
  const numeric = typeof size === 'number';
  const style: CSSProperties | undefined = numeric ? { width: size, height: size, fontSize: 18 } : undefined;
  return (
    <span
      className={`sb-avatar ant-avatar ant-avatar-circle${numeric ? '' : SIZE_CLASS[size ?? 'default']}${image ? ' ant-avatar-image' : ''}`}
      style={style}
    >
      {children}
    </span>
  );
}

export function AvatarImage({ src, name, size = 'default', fallback = 'placeholder' }: AvatarImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const alt = name ? `${name}'s avatar` : 'Avatar';

  if (fallback === 'initial') {
    // The stored default is the placeholder image; a letter says more than a grey silhouette.
    const usable = src && src !== PLACEHOLDER_AVATAR && src !== failedSrc ? src : undefined;
    return (
      <AvatarFrame size={size} image={Boolean(usable)}>
        {usable ? (
          <img src={usable} alt={alt} onError={() => setFailedSrc(usable)} />
        ) : (
          <span className="ant-avatar-string">{initialOf(name)}</span>
        )}
      </AvatarFrame>
    );
  }

  const shown = src && src !== failedSrc ? src : PLACEHOLDER_AVATAR;
  return (
    <AvatarFrame size={size} image>
      <img
        src={shown}
        alt={alt}
        // A broken picture: the next render swaps in the placeholder image.
        onError={() => {
          if (shown !== PLACEHOLDER_AVATAR) setFailedSrc(shown);
        }}
      />
    </AvatarFrame>
  );
}
