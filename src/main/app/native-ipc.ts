/**
 * The shell's side of `window.cuelab` (src/shared/native-bridge.ts): one `ipcMain.handle` per
 * named channel, each checking who asked and parsing what it was sent. The only module in
 * the main process that touches IPC.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  BrowserWindow,
  dialog,
  ipcMain,
  shell,
  type IpcMainInvokeEvent,
  type OpenDialogOptions,
  type SaveDialogOptions,
} from 'electron';
import { z } from 'zod';
import { nativeChannels, type EngineChange } from '../../shared/native-bridge';
import { keyVariableShape } from '../../shared/secrets';
import { externalHttpUrl } from './app-page';

/** What the handlers need from the rest of the shell. */
export interface NativeIpcContext {
  /** The engine's current address, waiting through a start or restart. */
  whenEngineReady(): Promise<EngineChange>;
  /** True for the URL of the app's own page; IPC from any other frame is refused. */
  isAppUrl(url: string): boolean;
  /** Keeps a key (safeStorage) and gives it to the engine's next start; false if not kept. */
  storeSecret(name: string, value: string): boolean;
  /** Lets the engine read files in a folder the user chose a file from in a native dialog. */
  allowFolder(folder: string): void;
}

/** Text files larger than this are refused rather than copied through IPC. */
const maxOpenBytes = 64 * 1024 * 1024;

const fileFiltersSchema = z
  .array(
    z.object({
      name: z.string().max(200),
      extensions: z.array(z.string().regex(/^(\*|[A-Za-z0-9._-]{1,32})$/)).max(50),
    }),
  )
  .max(50);

const openFileSchema = z.object({
  title: z.string().max(500),
  filters: fileFiltersSchema,
});

const saveFileSchema = z.object({
  title: z.string().max(500),
  defaultName: z.string().max(500),
  filters: fileFiltersSchema,
  data: z.union([z.string(), z.instanceof(Uint8Array)]),
});

const storeSecretSchema = z.object({
  name: z.string().regex(keyVariableShape),
  value: z.string().max(10_000),
});

/** Registers every handler; returns a function that removes them again. */
export function registerNativeIpc(context: NativeIpcContext): () => void {
  const handle = <T>(
    channel: string,
    handler: (event: IpcMainInvokeEvent, argument: unknown) => Promise<T>,
  ): void => {
    ipcMain.handle(channel, (event, argument: unknown) => {
      const frameUrl = event.senderFrame?.url;
      if (frameUrl === undefined || !context.isAppUrl(frameUrl)) {
        throw new Error(`CueLab refused ${channel} from a page that is not the app.`);
      }
      return handler(event, argument);
    });
  };

  handle(nativeChannels.getEngine, () => context.whenEngineReady());

  handle(nativeChannels.openFile, async (event, argument) => {
    const options = parseArgument(openFileSchema, argument, 'openFile');
    const dialogOptions: OpenDialogOptions = {
      title: options.title,
      filters: options.filters,
      properties: ['openFile'],
    };
    const owner = BrowserWindow.fromWebContents(event.sender);
    const result = owner
      ? await dialog.showOpenDialog(owner, dialogOptions)
      : await dialog.showOpenDialog(dialogOptions);
    const path = result.filePaths[0];
    if (result.canceled || path === undefined) return null;
    const { size } = await stat(path);
    if (size > maxOpenBytes) {
      throw new Error(
        `${path} is ${Math.round(size / 1048576)} MB; CueLab opens files up to 64 MB.`,
      );
    }
    // The window may now name this file (and its run's siblings) by path over HTTP.
    context.allowFolder(dirname(path));
    return { path, text: await readFile(path, 'utf8') };
  });

  handle(nativeChannels.saveFile, async (event, argument) => {
    const options = parseArgument(saveFileSchema, argument, 'saveFile');
    const dialogOptions: SaveDialogOptions = {
      title: options.title,
      defaultPath: options.defaultName,
      filters: options.filters,
    };
    const owner = BrowserWindow.fromWebContents(event.sender);
    const result = owner
      ? await dialog.showSaveDialog(owner, dialogOptions)
      : await dialog.showSaveDialog(dialogOptions);
    if (result.canceled || !result.filePath) return null;
    await writeFile(result.filePath, options.data);
    return result.filePath;
  });

  handle(nativeChannels.storeSecret, (_event, argument) => {
    const { name, value } = parseArgument(storeSecretSchema, argument, 'storeSecret');
    return Promise.resolve(context.storeSecret(name, value));
  });

  handle(nativeChannels.openExternal, async (_event, argument) => {
    const url = externalHttpUrl(argument);
    if (url === null) return false;
    await shell.openExternal(url);
    return true;
  });

  return () => {
    for (const channel of [
      nativeChannels.getEngine,
      nativeChannels.openFile,
      nativeChannels.saveFile,
      nativeChannels.openExternal,
      nativeChannels.storeSecret,
    ]) {
      ipcMain.removeHandler(channel);
    }
  };
}

/** Tells every window that the engine moved (a restart); the renderer reconnects and says so. */
export function announceEngineChange(change: EngineChange): void {
  for (const window of BrowserWindow.getAllWindows()) {
    if (!window.isDestroyed()) window.webContents.send(nativeChannels.engineChanged, change);
  }
}

function parseArgument<T>(schema: z.ZodType<T>, argument: unknown, method: string): T {
  const parsed = schema.safeParse(argument);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new Error(`cuelab.${method} was called with bad options${where}: ${issue?.message}`);
  }
  return parsed.data;
}
