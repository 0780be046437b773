/**
 * A minimal page hosting Inspect's own log viewer package, as `inspect view bundle` serves it:
 * static files with a listing.json, read through the package's static-HTTP API.
 */
import { createRoot } from 'react-dom/client';
import { App, clientApi, initializeStore, simpleHttpApi } from '@metrevals/inspect-log-viewer';
import '@metrevals/inspect-log-viewer/styles/index.css';

const api = clientApi(simpleHttpApi('logs'));
initializeStore(
  api,
  {
    downloadFiles: false,
    downloadLogs: false,
    webWorkers: false,
    streamSamples: false,
    streamSampleData: false,
  },
  undefined,
);
const root = document.getElementById('root');
if (root) createRoot(root).render(<App api={api} />);
