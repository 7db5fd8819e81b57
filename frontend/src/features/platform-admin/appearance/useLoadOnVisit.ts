import { useEffect, useEffectEvent, useState } from 'react';

export type LoadStatus = 'loading' | 'loaded' | 'failed';

/**
 * Runs `load` (true when it succeeded) once per visit of the screen, and says how it went. Once: a
 * theme change renews the toast API the load reports through, and must not fetch again.
 */
export function useLoadOnVisit(load: () => Promise<boolean>): LoadStatus {
  const [status, setStatus] = useState<LoadStatus>('loading');
  const run = useEffectEvent(load);
  useEffect(() => {
    let live = true;
    void run().then((ok) => {
      if (live) setStatus(ok ? 'loaded' : 'failed');
    });
    return () => {
      live = false;
    };
  }, []);
  return status;
}
