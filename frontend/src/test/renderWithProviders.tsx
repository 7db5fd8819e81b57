import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProviders } from '../app/AppProviders';

/**
 * Renders `element` at `path` inside the app's providers, plus any extra routes (e.g. redirect targets).
 * `url` is where the browser starts (the path with a query string, say); `path` by default.
 */
export function renderWithProviders(
  element: ReactElement,
  { path = '/', url, extraRoutes = [] }: { path?: string; url?: string; extraRoutes?: RouteObject[] } = {},
): RenderResult {
  const router = createMemoryRouter([{ path, element }, ...extraRoutes], { initialEntries: [url ?? path] });
  return render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}
