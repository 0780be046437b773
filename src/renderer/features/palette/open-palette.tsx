/**
 * Opens the command palette in its own small React root, created on first use, so the window's
 * frame needs no slot for it. commands.ts passes its list in (no import cycle).
 */
import { createRoot, type Root } from 'react-dom/client';
import { CommandPalette, type PaletteSource } from './CommandPalette';

let root: Root | null = null;
let returnFocus: HTMLElement | null = null;

function close(): void {
  root?.render(null);
  returnFocus?.focus();
  returnFocus = null;
}

/** Shows the palette (or closes it when it is open). */
export function toggleCommandPalette(source: PaletteSource): void {
  if (!root) {
    const container = document.createElement('div');
    container.id = 'command-palette-root';
    document.body.append(container);
    root = createRoot(container);
  }
  if (document.querySelector('.palette')) {
    close();
    return;
  }
  returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  root.render(<CommandPalette source={source} onClose={close} />);
}
