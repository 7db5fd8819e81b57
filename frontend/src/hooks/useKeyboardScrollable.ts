import { useEffect, useRef } from 'react';

/**
 * antd's tables scroll sideways inside their own `.ant-table-content`. When a table has nothing focusable
 * in its rows (a read-only log), a keyboard user could not scroll it: while it overflows, that scroller
 * gets a tab stop and a name (a labelled region). Returns the ref for the table's wrapper.
 */
export function useKeyboardScrollable<T extends HTMLElement>(label: string) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const update = () => {
      for (const scroller of root.querySelectorAll<HTMLElement>('.ant-table-content')) {
        const overflows = scroller.scrollWidth > scroller.clientWidth;
        const marked = scroller.dataset.keyboardScrollable === 'true';
        if (overflows && !marked) {
          scroller.dataset.keyboardScrollable = 'true';
          scroller.tabIndex = 0;
          scroller.setAttribute('role', 'region');
          scroller.setAttribute('aria-label', label);
        } else if (!overflows && marked) {
          delete scroller.dataset.keyboardScrollable;
          scroller.removeAttribute('tabindex');
          scroller.removeAttribute('role');
          scroller.removeAttribute('aria-label');
        }
      }
    };
    update();
    const resized = new ResizeObserver(update);
    resized.observe(root);
    const changed = new MutationObserver(update);
    changed.observe(root, { childList: true, subtree: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
    };
  }, [label]);
  return ref;
}
