import {
  cloneElement,
  useEffect,
  useId,
  useLayoutEffect,
  useState,
  type ComponentType,
  type KeyboardEvent,
  type ReactElement,
  type SyntheticEvent,
} from 'react';

/** The handlers a trigger element may have of its own: they still run. */
interface TriggerProps {
  onClick?: (event: SyntheticEvent) => void;
  onKeyDown?: (event: KeyboardEvent) => void;
  onPointerEnter?: (event: SyntheticEvent) => void;
  onPointerDown?: (event: SyntheticEvent) => void;
  onFocus?: (event: SyntheticEvent) => void;
}

/**
 * Renders `placeholder` (a trigger: a button) until the user shows an intent to use it, then loads the
 * real component (`load`) and renders it in its place. Hovering or focusing the placeholder starts the
 * load; pressing or clicking it (pointer, Enter or Space) or ArrowDown on it also opens what it opens, once
 * loaded: the real trigger is clicked. The real trigger gets the focus if the placeholder had it. So a menu's
 * code (antd's Dropdown and Menu are about 20 KB gzip) is not part of the first screen, and the first
 * use still opens it in one action.
 */
export function DeferredTrigger<P extends object>({
  load,
  loaded = null,
  eager = false,
  placeholder,
  props,
}: {
  load: () => Promise<ComponentType<P>>;
  /** The component when it has already loaded (for another trigger): no placeholder then. */
  loaded?: ComponentType<P> | null;
  /** Load it by itself as well, once the screen has been painted (a control shown on it). */
  eager?: boolean;
  placeholder: ReactElement<TriggerProps>;
  props: P;
}) {
  /**
   * The real component once here, and for the swap to it: the wrapper to find the real trigger in,
   * whether to open it (asked before the code was here) and whether to focus it (the placeholder had
   * the focus when it went). After the swap nothing here changes: the swap runs once (a second click
   * would close what the first opened).
   */
  const [state, setState] = useState<{
    Loaded: ComponentType<P> | null;
    box: HTMLElement | null;
    open: boolean;
    focus: boolean;
  }>(() => ({ Loaded: loaded, box: null, open: false, focus: false }));
  const { Loaded } = state;

  const id = useId();
  const want = (open: boolean) => {
    const box = document.getElementById(id);
    // Only the placeholder calls this: the swap (the effect below) has not run yet.
    if (open) setState((current) => (current.open ? current : { ...current, open: true }));
    load().then(
      (component) =>
        setState((current) =>
          current.Loaded
            ? current
            : // Read when the placeholder goes: a keyboard user may have focused it meanwhile.
              { ...current, Loaded: component, box, focus: !!box?.contains(document.activeElement) },
        ),
      // Hovered or focused only: a later click tries again.
      () => undefined,
    );
  };

  useEffect(() => {
    if (!eager || state.Loaded) return;
    // Two frames: after the first paint of the screen this is on.
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => want(false));
    });
    return () => cancelAnimationFrame(frame);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, at mount
  }, []);

  useLayoutEffect(() => {
    if (!state.Loaded || !state.box) return;
    const trigger = state.box.querySelector<HTMLElement>('input, button, [tabindex]');
    if (!trigger) return;
    if (state.focus) trigger.focus();
    if (state.open) trigger.click();
  }, [state]);

  const own = placeholder.props;
  return (
    // `display: contents`: the wrapper is only a handle on the trigger for focus, not a layout box.
    <span id={id} style={{ display: 'contents' }}>
      {Loaded ? (
        <Loaded {...props} />
      ) : (
        cloneElement(placeholder, {
          onPointerEnter: (event: SyntheticEvent) => {
            own.onPointerEnter?.(event);
            want(false);
          },
          onFocus: (event: SyntheticEvent) => {
            own.onFocus?.(event);
            want(false);
          },
          // Pressed (pointer down) already counts: the code may arrive between the press and the
          // click, and the click of a press whose button was swapped away goes to neither button.
          onPointerDown: (event: SyntheticEvent) => {
            own.onPointerDown?.(event);
            want(true);
          },
          onClick: (event: SyntheticEvent) => {
            own.onClick?.(event);
            want(true);
          },
          onKeyDown: (event: KeyboardEvent) => {
            own.onKeyDown?.(event);
            if (event.key !== 'ArrowDown') return;
            event.preventDefault();
            want(true);
          },
        })
      )}
    </span>
  );
}
