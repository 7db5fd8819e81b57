import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadStartPage } from './boot/pageLoaders';
import { mayHaveSession } from './workspace/session';
import { loadAppearance } from './features/platform-admin/appearance/loadAppearance';
// antd's prebuilt stylesheet, every component's rules: the ConfigProvider runs with zeroRuntime
// (src/app/AppProviders.tsx), so no component's styles are generated in the page.
import 'antd/dist/antd.css';
import './styles.css';
import './app/touchTargets.css';

// The first screen's code starts loading now, alongside the app's first render and the session check.
preloadStartPage(location.pathname, location.search, mayHaveSession());

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// The platform's look, asked for before the first render (the cached or built-in one shows meanwhile,
// and stays if this fails: it is not a user action).
loadAppearance().catch(() => undefined);

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
