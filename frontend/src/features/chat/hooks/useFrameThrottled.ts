import { useEffect, useRef, useState } from 'react';

/**
 * `value`, updated at most once per animation frame: a reply streaming in many small pieces is
 * rendered (Markdown and all) once a frame, with the newest text.
 */
export function useFrameThrottled<T>(value: T): T {
  const [shown, setShown] = useState(value);
  const latest = useRef(value);
  const frame = useRef<number | null>(null);

  useEffect(() => {
    latest.current = value;
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      setShown(latest.current);
    });
  }, [value]);

  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );
  return shown;
}
