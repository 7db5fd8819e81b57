import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../test/mockFetch';
import { App } from './appApi';
import { AppProviders } from '../app/AppProviders';

function Actions({ onConfirmed }: { onConfirmed: (ok: boolean) => void }) {
  const { notification, modal } = App.useApp();
  return (
    <>
      <button type="button" onClick={() => notification.error({ title: 'Boom', description: 'It failed' })}>
        Toast
      </button>
      <button
        type="button"
        onClick={() =>
          void modal.confirm({ title: 'Sure?', okText: 'Yes' }).then(onConfirmed, () => undefined)
        }
      >
        Confirm
      </button>
    </>
  );
}

describe('App.useApp (antd App, its toast and dialog code loaded after the first screen)', () => {
  it('renders the ant-app root and delivers a toast asked for before the toast code has loaded', async () => {
    mockFetch(() => [404, { message: 'none' }]);
    const { container } = render(
      <AppProviders>
        <Actions onConfirmed={() => undefined} />
      </AppProviders>,
    );
    expect(container.querySelector('.ant-app')).not.toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Toast' }));
    expect(await screen.findByText('Boom')).toBeInTheDocument();
    expect(screen.getByText('It failed')).toBeInTheDocument();
  });

  it("resolves a confirm dialog's promise with the user's answer", async () => {
    mockFetch(() => [404, { message: 'none' }]);
    const answers: boolean[] = [];
    render(
      <AppProviders>
        <Actions onConfirmed={(ok) => answers.push(ok)} />
      </AppProviders>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes' }));
    await expect.poll(() => answers).toEqual([true]);
  });
});
