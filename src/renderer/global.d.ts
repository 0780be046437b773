import type { NativeBridge } from '../shared/native-bridge';

declare global {
  interface Window {
    /** Present only inside the Electron window, exposed by the preload. */
    cuelab?: NativeBridge;
  }
}

export {};
