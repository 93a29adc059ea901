/**
 * The Electron main process (bundled to out/main/electron-main.js): single instance, hardened
 * session, the main window, one IPC channel per contract method through the shared dispatcher,
 * events forwarded to the window. With `--cli` it is the packaged `bindery` command instead.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, nativeTheme, session, shell, type IpcMainInvokeEvent } from 'electron';
import { eventChannel } from '../../shared/bridge.ts';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.ts';
import type { EventMessage } from '../../shared/events.ts';
import { startApiRuntime, type ApiRuntime } from '../services/api-runtime.ts';
import { openBindery, useNativeBindings, type Bindery } from '../services/bindery.ts';
import { resolveDataDir } from '../services/data-dir.ts';
import { parseAppArgs } from './app-args.ts';
import { cliInstallContext, installCli, uninstallCli } from './install-cli.ts';
import { ipcHandlers } from './ipc-dispatch.ts';
import { installMenu } from './menu.ts';
import type { MainAction } from './menu-template.ts';
import { chooseNativeBinding, nativeBindingCandidates } from './native-binding.ts';
import { appUrlPredicate } from './sender-check.ts';
import { createMainWindow, lockDownContents, safeOpenExternal } from './window.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const INDEX_FILE = path.join(here, '..', 'renderer', 'index.html');
const PRELOAD_FILE = path.join(here, '..', 'preload', 'preload.cjs');

const nativeBinding = chooseNativeBinding(nativeBindingCandidates({ env: process.env, isPackaged: app.isPackaged, appPath: app.getAppPath() }));
useNativeBindings(nativeBinding);

const args = parseAppArgs(process.argv);
if (args.cli) void runCli(args.cli);
else runApp(args.dataDir);

async function runCli(argv: string[]): Promise<void> {
  app.dock?.hide();
  const { main } = await import('../cli/main.ts');
  app.exit(await main(argv));
}

function runApp(dataDirFlag: string | undefined): void {
  const dataDir = resolveDataDir({ flag: dataDirFlag });
  // userData is the data directory (DESIGN 3.3), so the single-instance lock is per data directory.
  app.setPath('userData', dataDir);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  const trustedIds = new Set<number>();
  let window: BrowserWindow | null = null;
  let bindery: Bindery | null = null;
  let runtime: ApiRuntime | null = null;

  const send = (message: EventMessage): void => {
    if (window && !window.isDestroyed()) window.webContents.send(eventChannel(message.event), message.payload);
  };
  const openWindow = (): void => {
    window = createMainWindow({ dataDir, preload: PRELOAD_FILE, indexFile: INDEX_FILE, dark: nativeTheme.shouldUseDarkColors });
    const id = window.webContents.id;
    trustedIds.add(id);
    window.on('closed', () => {
      trustedIds.delete(id);
      window = null;
    });
  };

  app.on('second-instance', () => {
    if (!window) return openWindow();
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('web-contents-created', (_event, contents) => lockDownContents(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (!window && runtime) openWindow();
  });
  app.on('will-quit', () => {
    runtime?.stop();
    bindery?.close();
  });

  void app.whenReady().then(async () => {
    try {
      bindery = openBindery(dataDir);
    } catch (error) {
      dialog.showErrorBox('Bindery cannot open its data', (error as Error).message);
      app.exit(1);
      return;
    }
    // Interrupted commits, undos and discards are finished or undone before the window shows anything.
    const recovery = await bindery.start();
    if (recovery.error) console.error(`Bindery: recovery at start failed: ${recovery.error}`);
    runtime = startApiRuntime({
      bindery,
      host: 'electron',
      reportFailure: (method, error) => console.error(`Bindery: ${method} failed unexpectedly`, error),
      revealPath: async (folder) => {
        const problem = await shell.openPath(folder);
        if (problem) throw new Error(problem);
      },
    });
    runtime.events.on(send);
    hardenSession();
    const handlers = ipcHandlers({
      dispatch: runtime.dispatch,
      policy: { trustedIds, isAppUrl: appUrlPredicate(pathToFileURL(INDEX_FILE).href) },
      pickFolder: async (event) => {
        const owner = BrowserWindow.fromWebContents((event as IpcMainInvokeEvent).sender);
        const options = { title: 'Register a folder', properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'> };
        const result = owner ? await dialog.showOpenDialog(owner, options) : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
      openExternal: async (url) => void (await safeOpenExternal(url)),
      onRefused: (channel, event) => console.warn(`Bindery: refused ${channel} from ${event.senderFrame?.url ?? 'a destroyed frame'}`),
    });
    for (const [channel, handler] of handlers) ipcMain.handle(channel, (event, input) => handler(event, input));
    installMenu(process.platform, (command) => send({ event: 'menuCommand', payload: { command } }), (action) => void runAction(action));
    openWindow();
  });
}

/** Menu work done in main: install or remove the `bindery` command, reported in a dialog. */
async function runAction(action: MainAction): Promise<void> {
  const context = cliInstallContext(process.resourcesPath);
  try {
    if (action === 'install-cli') {
      const result = await installCli(context);
      await dialog.showMessageBox({ type: 'info', message: "The 'bindery' command is installed", detail: result.message });
    } else {
      const removed = await uninstallCli(context);
      const detail = removed.length > 0 ? `Removed ${removed.join(', ')}.` : "No 'bindery' command of this Bindery was installed.";
      await dialog.showMessageBox({ type: 'info', message: "The 'bindery' command", detail });
    }
  } catch (error) {
    dialog.showErrorBox("Bindery could not change the 'bindery' command", (error as Error).message);
  }
}

/** No permissions (camera, notifications, ...) for the page, and the CSP as a header too. */
function hardenSession(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}
