/**
 * The lab's sections, in navigation order. The order fixes the Ctrl/Cmd+1..7 shortcuts
 * (commands.ts) and the location hash of each section is `#/<id>`.
 */

/** Identifier of a section; also its location hash path. */
export type SectionId =
  'builder' | 'runs' | 'results' | 'replay' | 'settings' | 'annotate' | 'import';

/** What the navigation shows for a section. */
export interface SectionInfo {
  /** Stable identifier, used in `#/<id>`. */
  id: SectionId;
  /** Name in the navigation and the page heading. */
  label: string;
  /** One line under the heading: what the section is for. */
  summary: string;
}

/** Every section, in navigation order. */
export const sections: readonly SectionInfo[] = [
  {
    id: 'builder',
    label: 'Builder',
    summary: 'Design cue ablations: wording axes, direction, placement and mitigations.',
  },
  {
    id: 'runs',
    label: 'Runs',
    summary: 'Studies in this workspace, with progress, ETA and cost.',
  },
  {
    id: 'results',
    label: 'Results',
    summary: 'Flip rates, direction asymmetry, effort and accuracy, ready to export.',
  },
  {
    id: 'replay',
    label: 'Replay',
    summary: 'A cued run beside its uncued twin, aligned, with the divergence marked.',
  },
  {
    id: 'settings',
    label: 'Settings',
    summary: 'Providers and keys, workspace, Docker and appearance.',
  },
  {
    id: 'annotate',
    label: 'Annotate',
    summary: 'Label flipped reps blind, by mechanism; agreement updates as labels land.',
  },
  {
    id: 'import',
    label: 'Import',
    summary: 'Real agent runs in: SWE-bench, Terminal-Bench, Harbor, MCPMark and Inspect logs.',
  },
];

/** The section shown when the hash names none. */
export const defaultSection: SectionId = 'builder';

/** The section with this id. */
export function sectionInfo(id: SectionId): SectionInfo {
  const found = sections.find((section) => section.id === id);
  if (!found) throw new Error(`Unknown section ${id}`);
  return found;
}

/** The hash that shows a section, e.g. `#/runs`. */
export function hashForSection(id: SectionId): string {
  return `#/${id}`;
}

/** The section a location hash names, or the default section when it names none. */
export function sectionFromHash(hash: string): SectionId {
  const path = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  const found = sections.find((section) => section.id === path);
  return found ? found.id : defaultSection;
}
