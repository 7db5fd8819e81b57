import { act, render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { useThemeStore } from '../stores/themeStore';
import { mockFetch } from '../test/mockFetch';
import { App } from '../hooks/appApi';
import { AppProviders } from './AppProviders';

/** Records the toast API each render sees, and the theme's background colour (so it re-renders on a switch). */
function Probe({ seen }: { seen: unknown[] }) {
  const { notification } = App.useApp();
  const { token } = theme.useToken();
  seen.push(notification);
  return <span data-testid="bg">{token.colorBgContainer}</span>;
}

describe('AppProviders', () => {
  afterEach(() => useThemeStore.setState({ mode: 'system', systemDark: false }));

  it('keeps the toast API across theme switches, so effects keyed on it do not run again', () => {
    mockFetch(() => [404, { message: 'none' }]);
    useThemeStore.setState({ mode: 'light', systemDark: false });
    const seen: unknown[] = [];
    render(
      <AppProviders>
        <Probe seen={seen} />
      </AppProviders>,
    );
    const light = screen.getByTestId('bg').textContent;

    act(() => useThemeStore.getState().setMode('dark'));
    expect(screen.getByTestId('bg').textContent).not.toBe(light);
    act(() => useThemeStore.getState().setMode('system'));
    act(() => useThemeStore.getState().setSystemDark(true));

    expect(seen.length).toBeGreaterThan(2);
    expect(new Set(seen).size).toBe(1);
  });
});
