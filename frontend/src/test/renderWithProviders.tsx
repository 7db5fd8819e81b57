import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProviders } from '../app/AppProviders';

/** Renders `element` at `path` inside the app's providers, plus any extra routes (e.g. redirect targets). */
export function renderWithProviders(
  element: ReactElement,
  { path = '/', extraRoutes = [] }: { path?: string; extraRoutes?: RouteObject[] } = {},
): RenderResult {
  const router = createMemoryRouter([{ path, element }, ...extraRoutes], { initialEntries: [path] });
  return render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}
