import {
  COLOR_KEYS,
  type ColorKey,
  type ColorSettings,
  HEX_COLOR_PATTERN,
  INVALID_COLOR_MESSAGE,
} from '@contracts/platform-appearance';
import { Button, Card, ColorPicker, Flex, Input, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { AdminPageHeader } from '../../../components/AdminPageHeader';
import { useAppearance } from '../../../stores/appearanceStore';
import { contrastRatio } from '../../../lib/color';
import { useAppearanceActions } from '../appearance/useAppearanceActions';
import { useLoadOnVisit } from '../appearance/useLoadOnVisit';
import { SettingsLoadStatus } from './SettingsLoadStatus';

type ThemeName = keyof ColorSettings;
type Pending = Record<ThemeName, Partial<Record<ColorKey, string>>>;

const THEMES: Array<{ name: ThemeName; label: string }> = [
  { name: 'light_theme', label: 'Light Theme' },
  { name: 'dark_theme', label: 'Dark Theme' },
];

const COLOR_LABELS: Record<ColorKey, string> = {
  background: 'Background',
  foreground: 'Foreground',
  primary: 'Primary',
  primary_foreground: 'Primary Foreground',
  secondary: 'Secondary',
  secondary_foreground: 'Secondary Foreground',
  accent: 'Accent',
  accent_foreground: 'Accent Foreground',
  muted: 'Muted',
  muted_foreground: 'Muted Foreground',
  border: 'Border',
  input: 'Input',
  ring: 'Ring',
};

/** Text colours and the colour they are read on: a pair under WCAG AA (4.5:1) gets a warning. */
const TEXT_ON: Partial<Record<ColorKey, ColorKey>> = {
  foreground: 'background',
  primary_foreground: 'primary',
  secondary_foreground: 'secondary',
  accent_foreground: 'accent',
  muted_foreground: 'muted',
};

const NO_PENDING: Pending = { light_theme: {}, dark_theme: {} };
const isHex = (value: string) => HEX_COLOR_PATTERN.test(value);

function sameColors(a: ColorSettings, b: ColorSettings): boolean {
  return THEMES.every(({ name }) =>
    COLOR_KEYS.every((key) => a[name][key].toLowerCase() === b[name][key].toLowerCase()),
  );
}

/**
 * Platform Admin → Colors: both themes' 13 colours. An edit (picker or hex box) is pending until
 * Apply; Reset drops it. Save Changes stores what was applied, and every open screen takes it at once.
 */
export function PlatformColors() {
  const actions = useAppearanceActions();
  const status = useLoadOnVisit(() => actions.loadColors());
  const stored = useAppearance().colors;
  // What Apply made of the saved colours; null: nothing applied (the saved colours, kept current live).
  const [applied, setApplied] = useState<ColorSettings | null>(null);
  const [pending, setPending] = useState<Pending>(NO_PENDING);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  if (status !== 'loaded') return <SettingsLoadStatus status={status} what="color settings" />;

  const working = applied ?? stored;
  const dirty = !sameColors(working, stored);
  const errorKey = (theme: ThemeName, key: ColorKey) => `${theme}.${key}`;

  const edit = (theme: ThemeName, key: ColorKey, value: string) => {
    setPending((p) => ({ ...p, [theme]: { ...p[theme], [key]: value } }));
    setErrors(({ [errorKey(theme, key)]: _gone, ...rest }) => rest);
  };
  const reset = (theme: ThemeName, key: ColorKey) => {
    setPending((p) => {
      const { [key]: _dropped, ...rest } = p[theme];
      return { ...p, [theme]: rest };
    });
    setErrors(({ [errorKey(theme, key)]: _gone, ...rest }) => rest);
  };
  const apply = (theme: ThemeName, key: ColorKey) => {
    const value = (pending[theme][key] ?? '').trim();
    if (!isHex(value)) {
      setErrors((e) => ({ ...e, [errorKey(theme, key)]: INVALID_COLOR_MESSAGE }));
      return;
    }
    setApplied({ ...working, [theme]: { ...working[theme], [key]: value.toLowerCase() } });
    reset(theme, key);
  };
  const save = async () => {
    setSaving(true);
    const saved = await actions.saveColors(working);
    setSaving(false);
    if (saved) setApplied(null);
  };

  const row = (theme: ThemeName, key: ColorKey) => {
    const id = `color-${theme}-${key}`;
    const label = COLOR_LABELS[key];
    const edited = pending[theme][key];
    const shown = edited ?? working[theme][key];
    const error = errors[errorKey(theme, key)];
    const on = TEXT_ON[key];
    const ratio = on && isHex(shown) ? contrastRatio(shown, working[theme][on]) : null;
    return (
      <div key={key} style={{ marginBottom: 12 }}>
        <Flex align="center" gap="small" wrap>
          <label htmlFor={id} style={{ width: 170 }}>
            {label}
          </label>
          <ColorPicker
            disabledAlpha
            format="hex"
            value={isHex(shown) ? shown : undefined}
            onChange={(color) => edit(theme, key, color.toHexString())}
          >
            <Button
              aria-label={`Pick ${label} color`}
              style={{ width: 36, padding: 0, background: isHex(shown) ? shown : undefined }}
            />
          </ColorPicker>
          <Input
            id={id}
            value={shown}
            maxLength={7}
            style={{ width: 120 }}
            status={error ? 'error' : undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => edit(theme, key, e.target.value)}
            onPressEnter={() => edited !== undefined && apply(theme, key)}
          />
          {edited !== undefined && (
            <>
              <Button aria-label={`Reset ${label}`} onClick={() => reset(theme, key)}>
                Reset
              </Button>
              <Button type="primary" aria-label={`Apply ${label}`} onClick={() => apply(theme, key)}>
                Apply
              </Button>
            </>
          )}
        </Flex>
        {error && (
          <Typography.Text type="danger" id={`${id}-error`} role="alert">
            {error}
          </Typography.Text>
        )}
        {ratio !== null && ratio < 4.5 && (
          <Typography.Text type="warning">
            Contrast with {COLOR_LABELS[on!]} is {ratio.toFixed(1)}:1, below the 4.5:1 readable text needs.
          </Typography.Text>
        )}
      </div>
    );
  };

  return (
    <>
      <AdminPageHeader
        title="Color Settings"
        description="The colors of the light and dark themes, for everyone"
        extra={
          <Button type="primary" disabled={!dirty || saving} onClick={() => void save()}>
            {saving ? 'Saving Changes' : 'Save Changes'}
          </Button>
        }
      />
      <Card style={{ maxWidth: 720 }}>
        <Tabs
          destroyOnHidden
          items={THEMES.map(({ name, label }) => ({
            key: name,
            label,
            children: COLOR_KEYS.map((key) => row(name, key)),
          }))}
        />
        {dirty && (
          <Typography.Text type="secondary">
            Applied changes are not saved yet: Save Changes applies them for everyone.
          </Typography.Text>
        )}
      </Card>
    </>
  );
}
