/**
 * Renderer entry: starts the engine connection, theme, hash route and shortcuts against the
 * window's one store, then renders the app.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startEngineConnection } from './lib/engine-connection';
import { installHashRoute } from './lib/hash-route';
import { installShortcuts } from './lib/shortcuts';
import { installTheme } from './lib/theme';
import { labStore } from './store';
import './styles.css';

installTheme(labStore);
installHashRoute(labStore);
installShortcuts(labStore);
startEngineConnection(labStore);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
