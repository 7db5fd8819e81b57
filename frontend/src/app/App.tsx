import { BrowserRouter, useRoutes } from 'react-router-dom';
import { AppProviders } from './AppProviders';
import { appRoutes } from './routes';

function AppRoutes() {
  return useRoutes(appRoutes);
}

/**
 * The declarative router: the app uses no loaders, actions or fetchers, and the data router's machinery
 * (createBrowserRouter) is a third of react-router's code, loaded before any screen.
 */
export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
