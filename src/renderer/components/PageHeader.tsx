import type { ReactNode } from 'react';
import { sectionInfo, type SectionId } from '../sections';

/** The heading of a section page: its name as `<h1>`, its one-line summary, any actions. */
export function PageHeader({ section, actions }: { section: SectionId; actions?: ReactNode }) {
  const info = sectionInfo(section);
  return (
    <header className="page-header">
      <div>
        <h1>{info.label}</h1>
        <p className="page-summary">{info.summary}</p>
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </header>
  );
}
