import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

/** A dialog's props: shown while `open`. */
interface DialogProps {
  open: boolean;
}

export interface LazyDialog<P extends DialogProps> {
  (props: P): ReactNode;
  /** Starts loading the dialog's code (a hover or a menu opening: it is likely to be asked for). */
  preload: () => void;
}

/**
 * A dialog whose code (and the antd components only it uses: forms, tables, uploads...) loads the first
 * time it opens, not with the screen. Once loaded it stays mounted like an eager one, so closing it
 * animates and gives focus back as before; until then it renders nothing.
 */
export function lazyDialog<P extends DialogProps>(load: () => Promise<ComponentType<P>>): LazyDialog<P> {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const start = () => (loading ??= load().then((component) => ({ default: component })));
  const Loaded = lazy(start);

  function Deferred(props: P) {
    const [wanted, setWanted] = useState(props.open);
    // Set while rendering (React's pattern for state derived from props): mounted from the first open on.
    if (props.open && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  Deferred.preload = () => {
    // A failed preload is retried by the open itself (React.lazy), which reports the error.
    start().catch(() => {
      loading = null;
    });
  };
  return Deferred;
}
