import { useState } from 'react';
import { useAppearance } from '../stores/appearanceStore';

const BUILT_IN_LOGO = '/logo.svg';

/**
 * The installation's logo (Platform Settings), live: the built-in mark when none is saved or the saved
 * image fails to load. `size` is the built-in mark's edge; a saved logo (recommended 150×50) keeps its
 * proportions within `size` high and 150 px wide. `alt`: the logo's text alternative; '' where a
 * visible title next to it already says it.
 */
export function BrandLogo({ size, alt }: { size: number; alt: string }) {
  const { logoUrl } = useAppearance();
  const [failed, setFailed] = useState<string | null>(null);
  if (!logoUrl || failed === logoUrl) {
    return <img src={BUILT_IN_LOGO} alt={alt} width={size} height={size} data-testid="brand-logo" />;
  }
  return (
    <img
      src={logoUrl}
      alt={alt}
      data-testid="brand-logo"
      style={{ maxHeight: Math.max(size, 40), maxWidth: 150, width: 'auto', height: 'auto' }}
      onError={() => setFailed(logoUrl)}
    />
  );
}
