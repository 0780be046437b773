import { EngineStatus } from './EngineStatus';
import { ThemeToggle } from './ThemeToggle';

/** The bar across the top: product name, engine indicator, theme toggle. */
export function TopBar() {
  return (
    <header className="top-bar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          C
        </span>
        <span className="brand-name">CueLab</span>
      </div>
      <div className="top-bar-end">
        <EngineStatus />
        <ThemeToggle />
      </div>
    </header>
  );
}
