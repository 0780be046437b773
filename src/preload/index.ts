/**
 * The preload: `window.cuelab` (src/shared/native-bridge.ts) as a handful of named calls.
 * Each method invokes its own channel; nothing generic crosses into the page.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { nativeChannels, type EngineChange, type NativeBridge } from '../shared/native-bridge';

const bridge: NativeBridge = {
  shell: 'electron',
  getEngine: () => ipcRenderer.invoke(nativeChannels.getEngine) as Promise<EngineChange>,
  onEngineChange(listener) {
    // The page sees the change only, never the IPC event (it carries the sender).
    const forward = (_event: IpcRendererEvent, change: EngineChange): void => listener(change);
    ipcRenderer.on(nativeChannels.engineChanged, forward);
    return () => {
      ipcRenderer.removeListener(nativeChannels.engineChanged, forward);
    };
  },
  openFile: (options) =>
    ipcRenderer.invoke(nativeChannels.openFile, {
      title: options.title,
      filters: options.filters,
    }) as Promise<{ path: string; text: string } | null>,
  saveFile: (options) =>
    ipcRenderer.invoke(nativeChannels.saveFile, {
      title: options.title,
      defaultName: options.defaultName,
      filters: options.filters,
      data: options.data,
    }) as Promise<string | null>,
  openExternal: (url) => ipcRenderer.invoke(nativeChannels.openExternal, url) as Promise<boolean>,
  storeSecret: (name, value) =>
    ipcRenderer.invoke(nativeChannels.storeSecret, { name, value }) as Promise<boolean>,
};

contextBridge.exposeInMainWorld('cuelab', bridge);
