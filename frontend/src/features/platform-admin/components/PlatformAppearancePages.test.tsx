import {
  DEFAULT_COLOR_SETTINGS,
  INVALID_COLOR_MESSAGE,
  type PlatformAppearance,
} from '@contracts/platform-appearance';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

// Typing into antd inputs is slow on a busy machine: these walk through whole pages.
vi.setConfig({ testTimeout: 30_000 });
import { mockFetch } from '../../../test/mockFetch';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { useAppearanceStore } from '../../../stores/appearanceStore';
import { PlatformColors } from './PlatformColors';
import { PlatformSettings } from './PlatformSettings';

const appearance: PlatformAppearance = {
  logoUrl: null,
  faviconUrl: null,
  accentColor: '#9b87f5',
  colors: DEFAULT_COLOR_SETTINGS,
  updatedAt: null,
};

describe('Platform Settings', () => {
  it('saves the logo, favicon and accent colour, and the app takes them at once', async () => {
    const calls = mockFetch(({ method, path, body }) => {
      if (path === '/api/appearance') return [200, appearance];
      if (method === 'PUT' && path === '/api/admin/settings')
        return [200, { ...appearance, ...(body as object), updatedAt: '2026-11-22T10:00:00.000Z' }];
      return [404, {}];
    });
    const user = userEvent.setup();
    renderWithProviders(<PlatformSettings />);

    expect(await screen.findByText('Application Settings')).toBeInTheDocument();
    expect(screen.getByText('Recommended size: 150x50px')).toBeInTheDocument();
    const accent = screen.getByLabelText('Accent Color');
    expect(accent).toHaveValue('#9b87f5');
    expect(accent).toHaveAttribute('placeholder', '#9b87f5');

    await user.clear(accent);
    await user.type(accent, '#12345');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(INVALID_COLOR_MESSAGE)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user.type(screen.getByLabelText('Logo URL'), 'javascript:alert(1)');
    expect(
      await screen.findByText('Logo URL must be an https:// address or a path on this site starting with /.'),
    ).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Logo URL'));
    await user.type(screen.getByLabelText('Logo URL'), 'https://cdn.example.com/logo.png');
    await user.clear(accent);
    await user.type(accent, '#12a150');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(screen.getByText('Your changes have been applied successfully.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      logoUrl: 'https://cdn.example.com/logo.png',
      faviconUrl: null,
      accentColor: '#12a150',
    });
    expect(useAppearanceStore.getState().appearance.accentColor).toBe('#12a150');
    expect(screen.getByRole('img', { name: 'Logo preview' })).toHaveAttribute(
      'src',
      'https://cdn.example.com/logo.png',
    );
  });

  it('says so when the settings cannot be loaded', async () => {
    mockFetch(() => [500, { statusCode: 500, error: 'INTERNAL', message: 'boom' }]);
    renderWithProviders(<PlatformSettings />);
    expect(
      await screen.findByText('Failed to load settings. Please refresh and try again.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Failed to load settings')).toBeInTheDocument();
    expect(screen.getAllByText('Please try again later.').length).toBeGreaterThan(0);
  });

  it('shows the server’s reason when a save is refused', async () => {
    mockFetch(({ method }) =>
      method === 'PUT'
        ? [
            400,
            {
              statusCode: 400,
              error: 'VALIDATION_FAILED',
              message: 'The uploaded logo is no longer available.',
            },
          ]
        : [200, appearance],
    );
    const user = userEvent.setup();
    renderWithProviders(<PlatformSettings />);
    await user.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to save settings')).toBeInTheDocument();
    expect(screen.getByText('The uploaded logo is no longer available.')).toBeInTheDocument();
  });
});

describe('Color Settings', () => {
  it('keeps an edit pending until Apply, refuses a bad hex, and saves what was applied', async () => {
    const calls = mockFetch(({ method, path, body }) => {
      if (path === '/api/appearance') return [200, appearance];
      if (method === 'PUT' && path === '/api/admin/colors')
        return [200, { ...appearance, colors: body, updatedAt: '2026-11-22T10:00:00.000Z' }];
      return [404, {}];
    });
    const user = userEvent.setup();
    renderWithProviders(<PlatformColors />);

    const primary = await screen.findByLabelText('Primary');
    expect(primary).toHaveValue('#5c6ac4');
    expect(screen.queryByRole('button', { name: 'Apply Primary' })).not.toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(save).toBeDisabled();

    await user.clear(primary);
    await user.type(primary, '#12');
    await user.click(screen.getByRole('button', { name: 'Apply Primary' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID_COLOR_MESSAGE);

    await user.click(screen.getByRole('button', { name: 'Reset Primary' }));
    expect(primary).toHaveValue('#5c6ac4');
    expect(screen.queryByRole('button', { name: 'Apply Primary' })).not.toBeInTheDocument();

    await user.clear(primary);
    await user.type(primary, '#FF8800');
    expect(save).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Apply Primary' }));
    expect(primary).toHaveValue('#ff8800');
    expect(save).toBeEnabled();

    // Dark theme tab: its own keys.
    await user.click(screen.getByRole('tab', { name: 'Dark Theme' }));
    const darkPanel = screen.getByRole('tabpanel');
    expect(within(darkPanel).getByLabelText('Primary')).toHaveValue('#356ded');

    await user.click(save);
    expect(await screen.findByText('Color settings saved')).toBeInTheDocument();
    const sent = calls.find((c) => c.method === 'PUT')?.body as typeof DEFAULT_COLOR_SETTINGS;
    expect(sent.light_theme.primary).toBe('#ff8800');
    expect(sent.dark_theme).toEqual(DEFAULT_COLOR_SETTINGS.dark_theme);
    await waitFor(() =>
      expect(useAppearanceStore.getState().appearance.colors.light_theme.primary).toBe('#ff8800'),
    );
  });

  it('warns about unreadable text colours and reports a refused save', async () => {
    mockFetch(({ method }) =>
      method === 'PUT'
        ? [400, { statusCode: 400, error: 'VALIDATION_FAILED', message: INVALID_COLOR_MESSAGE }]
        : [200, appearance],
    );
    const user = userEvent.setup();
    renderWithProviders(<PlatformColors />);
    const foreground = await screen.findByLabelText('Foreground');
    await user.clear(foreground);
    await user.type(foreground, '#eeeeee');
    await user.click(screen.getByRole('button', { name: 'Apply Foreground' }));
    expect(screen.getByText(/Contrast with Background is 1\.\d:1/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to save color settings')).toBeInTheDocument();
    expect(screen.getByText(INVALID_COLOR_MESSAGE)).toBeInTheDocument();
  });

  it('says so when the colours cannot be loaded', async () => {
    mockFetch(() => [503, {}]);
    renderWithProviders(<PlatformColors />);
    expect(await screen.findByText('Failed to load color settings')).toBeInTheDocument();
    expect(screen.getByText('Please try again later.')).toBeInTheDocument();
  });
});
