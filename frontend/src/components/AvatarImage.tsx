import { Avatar } from 'antd';
import { useState } from 'react';

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

export function AvatarImage({ src, name, size = 'default', fallback = 'placeholder' }: AvatarImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const alt = name ? `${name}'s avatar` : 'Avatar';

  if (fallback === 'initial') {
    // The stored default is the placeholder image; a letter says more than a grey silhouette.
    const usable = src && src !== PLACEHOLDER_AVATAR && src !== failedSrc ? src : undefined;
    return (
      <Avatar
        size={size}
        src={usable}
        alt={alt}
        onError={() => {
          setFailedSrc(usable ?? null);
          return true;
        }}
      >
        {initialOf(name)}
      </Avatar>
    );
  }

  const shown = src && src !== failedSrc ? src : PLACEHOLDER_AVATAR;
  return (
    <Avatar
      size={size}
      src={shown}
      alt={alt}
      onError={() => {
        if (shown !== PLACEHOLDER_AVATAR) setFailedSrc(shown);
        // Keep rendering an <img>: the next render swaps in the placeholder.
        return false;
      }}
    />
  );
}
