import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loadAppearance } from './features/platform-admin/appearance/loadAppearance';
import './styles.css';

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
