/**
 * The Electron preload (bundled to CommonJS for the sandboxed renderer): exposes the bridge as
 * `window.bindery` through contextBridge. Thin: the bridge's shape lives in bridge-builder.ts.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { BRIDGE_KEY } from '../shared/bridge.ts';
import { buildBridge } from './bridge-builder.ts';

contextBridge.exposeInMainWorld(
  BRIDGE_KEY,
  buildBridge({
    invoke: (channel, input) => ipcRenderer.invoke(channel, input),
    on: (channel, listener) => void ipcRenderer.on(channel, listener),
    off: (channel, listener) => void ipcRenderer.removeListener(channel, listener),
    getPathForFile: (file) => webUtils.getPathForFile(file),
  }),
);
