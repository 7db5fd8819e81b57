import { useId, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { themeConfigFor } from '../../../boot/themeCache';
import { useAppearance } from '../../../stores/appearanceStore';
import { useResolvedTheme } from '../../../stores/themeStore';
import './ChatTabs.css';

export interface ChatTab {
  key: string;
  label: string;
  children: ReactNode;
}

/**
 * Tabs (WAI-ARIA tablist: the selected tab is the one Tab stop, arrows, Home and End move between
 * tabs and select them), drawn like antd's small Tabs: antd's Tabs are about 11 KB gzip the chat's
 * first screen does not need for two labels. A panel is rendered once first shown, then kept (hidden).
 */
export function ChatTabs({ items, onChange }: { items: ChatTab[]; onChange?: (key: string) => void }) {
  const id = useId();
  const [selected, setSelected] = useState(items[0]?.key);
  const [shown, setShown] = useState<string[]>(items[0] ? [items[0].key] : []);
  // The selected tab's text colour of this theme (antd's Tabs token; the platform's colours).
  const selectedColor = themeConfigFor(useResolvedTheme(), useAppearance().colors).components?.Tabs
    ?.itemSelectedColor;

  const select = (key: string) => {
    if (key === selected) return;
    setSelected(key);
    setShown((keys) => (keys.includes(key) ? keys : [...keys, key]));
    onChange?.(key);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = items.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    select(items[next].key);
    document.getElementById(`${id}-tab-${items[next].key}`)?.focus();
  };

  return (
    <div
      className="sb-tabs"
      style={selectedColor ? ({ '--sb-tab-selected-color': selectedColor } as CSSProperties) : undefined}
    >
      <div role="tablist" aria-orientation="horizontal" className="sb-tabs-nav">
        {items.map((item, index) => (
          <button
            key={item.key}
            type="button"
            role="tab"
            id={`${id}-tab-${item.key}`}
            className="sb-tab"
            aria-selected={item.key === selected}
            aria-controls={`${id}-panel-${item.key}`}
            tabIndex={item.key === selected ? 0 : -1}
            onClick={() => select(item.key)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {item.label}
          </button>
        ))}
      </div>
      {items
        .filter((item) => shown.includes(item.key))
        .map((item) => (
          <div
            key={item.key}
            role="tabpanel"
            id={`${id}-panel-${item.key}`}
            aria-labelledby={`${id}-tab-${item.key}`}
            className="sb-tabs-panel"
            tabIndex={0}
            hidden={item.key !== selected}
          >
            {item.children}
          </div>
        ))}
    </div>
  );
}
