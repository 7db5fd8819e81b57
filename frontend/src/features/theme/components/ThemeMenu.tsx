import { DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useResolvedTheme, useThemeStore, type ThemeMode } from '../../../stores/themeStore';

const items: MenuProps['items'] = [
  { key: 'light', label: 'Light', icon: <SunOutlined /> },
  { key: 'dark', label: 'Dark', icon: <MoonOutlined /> },
  { key: 'system', label: 'System', icon: <DesktopOutlined /> },
];

function isThemeMode(key: string): key is ThemeMode {
  return key === 'light' || key === 'dark' || key === 'system';
}

export function ThemeMenu() {
  const mode = useThemeStore((s) => s.mode);
  const setMode = useThemeStore((s) => s.setMode);
  const resolved = useResolvedTheme();

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        selectable: true,
        selectedKeys: [mode],
        onClick: ({ key }) => {
          if (isThemeMode(key)) setMode(key);
        },
      }}
    >
      <Button
        type="text"
        aria-label="Toggle theme"
        icon={resolved === 'dark' ? <MoonOutlined /> : <SunOutlined />}
      />
    </Dropdown>
  );
}
