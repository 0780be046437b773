import { useEffect, type ComponentType } from 'react';
import { ConnectionBanner } from './components/ConnectionBanner';
import { OpenLabScreen } from './components/OpenLabScreen';
import { Sidebar } from './components/Sidebar';
import { TopBar } from './components/TopBar';
import { BuilderPage } from './features/builder/BuilderPage';
import { AnnotatePage } from './features/annotate/AnnotatePage';
import { ImportPage } from './features/import/ImportPage';
import { ReplayPage } from './features/replay/ReplayPage';
import { ResultsPage } from './features/results/ResultsPage';
import { RunsPage } from './features/runs/RunsPage';
import { SettingsPage } from './features/settings/SettingsPage';
import { sectionInfo, type SectionId } from './sections';
import { useLab } from './store';

const pages: Record<SectionId, ComponentType> = {
  builder: BuilderPage,
  runs: RunsPage,
  results: ResultsPage,
  replay: ReplayPage,
  settings: SettingsPage,
  annotate: AnnotatePage,
  import: ImportPage,
};

/** The window: top bar, section navigation and the current section's page. */
export function App() {
  const addressMissing = useLab((state) => state.addressMissing);
  const lastError = useLab((state) => state.lastError);
  const section = useLab((state) => state.section);

  useEffect(() => {
    document.title = addressMissing ? 'CueLab' : `${sectionInfo(section).label} · CueLab`;
  }, [addressMissing, section]);

  if (addressMissing) return <OpenLabScreen problem={lastError} />;
  const Page = pages[section];
  return (
    <div className="app-frame">
      <TopBar />
      <Sidebar />
      <main className="content">
        <ConnectionBanner />
        <Page key={section} />
      </main>
    </div>
  );
}
