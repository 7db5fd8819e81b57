import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/renderWithProviders';
import { NotFoundPage } from './NotFoundPage';

describe('NotFoundPage', () => {
  it('says the page was not found and links home', async () => {
    renderWithProviders(<NotFoundPage />, {
      path: '/no/such/page',
      extraRoutes: [{ path: '/', element: <p>Home screen</p> }],
    });

    expect(screen.getByText('Oops! Page not found')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Return to Home' }));
    expect(await screen.findByText('Home screen')).toBeInTheDocument();
  });
});
