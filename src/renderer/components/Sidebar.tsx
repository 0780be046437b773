import { ariaShortcut, formatShortcut, navigationCommands } from '../commands';
import { hashForSection } from '../sections';
import { useLab } from '../store';
import { SectionIcon } from './icons';

function workspaceName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/** The left navigation: one link per section (fed by commands.ts), workspace at the foot. */
export function Sidebar() {
  const current = useLab((state) => state.section);
  const workspace = useLab((state) => state.health?.workspace);
  return (
    <aside className="sidebar">
      <nav aria-label="Sections">
        <ul className="nav-list">
          {navigationCommands.map((command) => (
            <li key={command.id}>
              <a
                className="nav-link"
                href={hashForSection(command.section)}
                aria-current={command.section === current ? 'page' : undefined}
                aria-keyshortcuts={command.shortcut ? ariaShortcut(command.shortcut) : undefined}
              >
                <SectionIcon section={command.section} />
                <span className="nav-label">{command.label}</span>
                {command.shortcut && (
                  <kbd className="nav-shortcut" aria-hidden="true">
                    {formatShortcut(command.shortcut)}
                  </kbd>
                )}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {workspace && (
        <div className="sidebar-foot" title={workspace}>
          <span className="sidebar-foot-label">Workspace</span>
          <span className="sidebar-foot-value">{workspaceName(workspace)}</span>
        </div>
      )}
    </aside>
  );
}
