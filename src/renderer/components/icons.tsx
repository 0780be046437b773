/**
 * The few line icons the frame uses: 16×16, stroked in the current colour, hidden from
 * assistive technology (every icon sits beside a text label or inside a labelled button).
 */
import type { ReactNode } from 'react';
import type { SectionId } from '../sections';

function Icon({ children, size = 16 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

const sectionPaths: Record<SectionId, ReactNode> = {
  builder: (
    <>
      <path d="M6 1.75h4M6.75 1.75v4.1L2.9 12.6a1.1 1.1 0 0 0 .95 1.65h8.3a1.1 1.1 0 0 0 .95-1.65L9.25 5.85v-4.1" />
      <path d="M4.6 9.5h6.8" />
    </>
  ),
  runs: <path d="M1.5 8.5h2.75l1.9-5 3.7 9.5 1.9-4.5h2.75" />,
  results: (
    <>
      <path d="M2 14h12" />
      <path d="M4 11.5V8M8 11.5V3.5M12 11.5V6" />
    </>
  ),
  replay: (
    <>
      <rect x="1.75" y="2.5" width="12.5" height="11" rx="1.5" />
      <path d="M8 2.5v11M4 6h2M4 8.5h2M10 6h2M10 8.5h1" />
    </>
  ),
  settings: (
    <>
      <path d="M2 4h3.5M8.5 4H14M2 8h7.5M12.5 8H14M2 12h1.5M6.5 12H14" />
      <circle cx="7" cy="4" r="1.5" />
      <circle cx="11" cy="8" r="1.5" />
      <circle cx="5" cy="12" r="1.5" />
    </>
  ),
  annotate: (
    <>
      <path d="M2 2.5h6.5l5.5 5.5-6 6-6-5.5z" />
      <circle cx="5.25" cy="5.75" r="1" />
    </>
  ),
  import: (
    <>
      <path d="M8 1.75v8M4.75 6.75 8 10l3.25-3.25" />
      <path d="M2 10.5v2.25c0 .8.65 1.5 1.5 1.5h9c.85 0 1.5-.7 1.5-1.5V10.5" />
    </>
  ),
};

/** The icon of a section. */
export function SectionIcon({ section, size }: { section: SectionId; size?: number }) {
  return <Icon size={size}>{sectionPaths[section]}</Icon>;
}

/** A sun: shown while the dark theme is on, to switch to light. */
export function SunIcon() {
  return (
    <Icon>
      <circle cx="8" cy="8" r="2.75" />
      <path d="M8 1.5v1.5M8 13v1.5M1.5 8H3M13 8h1.5M3.4 3.4l1.05 1.05M11.55 11.55l1.05 1.05M3.4 12.6l1.05-1.05M11.55 4.45l1.05-1.05" />
    </Icon>
  );
}

/** A moon: shown while the light theme is on, to switch to dark. */
export function MoonIcon() {
  return (
    <Icon>
      <path d="M13.5 9.6A5.75 5.75 0 1 1 6.4 2.5a4.5 4.5 0 0 0 7.1 7.1Z" />
    </Icon>
  );
}
