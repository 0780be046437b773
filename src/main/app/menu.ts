/**
 * A minimal application menu of standard roles: the edit shortcuts (copy, paste, undo) and
 * reload / dev tools / zoom work in the window because these roles exist.
 */
import { Menu, type MenuItemConstructorOptions } from 'electron';

/** Installs the menu; on macOS the app menu comes first, as the platform expects. */
export function installAppMenu(): void {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
