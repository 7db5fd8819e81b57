import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { ComponentType } from 'react';
import { DeferredTrigger } from '../../../components/DeferredTrigger';
import { useResolvedTheme } from '../../../stores/themeStore';

let themeMenu: ComponentType<object> | null = null;
const loadThemeMenu = () =>
  import('../../theme/components/ThemeMenu').then((m) => (themeMenu = m.ThemeMenu as ComponentType<object>));

/**
 * The sidebar's theme menu (ThemeMenu), loaded when its button is first hovered, focused or used: the
 * menu's code (antd's Dropdown and Menu) is not needed to show the chat. Until then its button is drawn
 * as ThemeMenu draws it.
 */
export function DeferredThemeMenu() {
  const resolved = useResolvedTheme();
  return (
    <DeferredTrigger<object>
      load={loadThemeMenu}
      loaded={themeMenu}
      props={{}}
      placeholder={
        <Button
          type="text"
          aria-label="Toggle theme"
          icon={resolved === 'dark' ? <MoonOutlined /> : <SunOutlined />}
        />
      }
    />
  );
}
