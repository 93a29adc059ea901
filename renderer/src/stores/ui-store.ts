/**
 * App-wide UI state: the current screen (kept in the URL hash so reload and links work), toasts,
 * the host facts shown in the header, and whether the event stream is connected.
 */
import { create } from 'zustand';
import type { AppInfo } from '../../../shared/dto.ts';

/** The screens of the app. */
export const ROUTES = ['resources', 'projects', 'tools', 'types', 'inspector', 'plans', 'activity'] as const;
export type Route = (typeof ROUTES)[number];

/** A short notice in the corner. */
export interface Toast {
  id: number;
  tone: 'success' | 'warning' | 'error';
  message: string;
}

/** UI state and its setters. */
export interface UiState {
  route: Route;
  toasts: Toast[];
  appInfo: AppInfo | null;
  appInfoError: unknown;
  /** The folder the register dialog opens with; null while it is closed. */
  registerLocation: string | null;
  /** The tool text the import dialog opens with; null while it is closed. */
  toolImport: { text: string; fileName: string } | null;
  /** A note for the register dialog when a drop carried no path (browser hosts). */
  dropNote: string | null;
  navigate(route: Route): void;
  /** Shows a notice; `sticky` keeps it until dismissed (an outcome with nowhere else to show). */
  toast(message: string, tone?: Toast['tone'], options?: { sticky?: boolean }): void;
  dismissToast(id: number): void;
  setAppInfo(info: AppInfo | null, error?: unknown): void;
  /** Opens the register dialog (from the button, the picker or a drop), on the resources screen. */
  openRegister(location?: string): void;
  closeRegister(): void;
  /** Opens the import dialog (button, file drop), on the tools screen. */
  openToolImport(source?: { text: string; fileName: string }): void;
  closeToolImport(): void;
  setDropNote(note: string | null): void;
}

const TOAST_MS = 4500;
let nextToastId = 1;

/** The route named by a URL hash such as `#/tools`, or the default screen. */
export function routeFromHash(hash: string): Route {
  const name = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return (ROUTES as readonly string[]).includes(name) ? (name as Route) : 'resources';
}

/** The one UI store. */
export const useUi = create<UiState>()((set, get) => ({
  route: typeof window === 'undefined' ? 'resources' : routeFromHash(window.location.hash),
  toasts: [],
  appInfo: null,
  appInfoError: null,
  registerLocation: null,
  toolImport: null,
  dropNote: null,
  navigate: (route) => {
    if (window.location.hash !== `#/${route}`) window.location.hash = `#/${route}`;
    set({ route });
  },
  toast: (message, tone = 'success', options = {}) => {
    const id = nextToastId++;
    set({ toasts: [...get().toasts, { id, tone, message }] });
    if (!options.sticky) setTimeout(() => get().dismissToast(id), tone === 'success' ? TOAST_MS : TOAST_MS * 2);
  },
  dismissToast: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
  setAppInfo: (info, error = null) => set({ appInfo: info, appInfoError: error }),
  openRegister: (location = '') => {
    get().navigate('resources');
    set({ registerLocation: location });
  },
  closeRegister: () => set({ registerLocation: null, dropNote: null }),
  openToolImport: (source = { text: '', fileName: 'tool.yaml' }) => {
    get().navigate('tools');
    set({ toolImport: source });
  },
  closeToolImport: () => set({ toolImport: null }),
  setDropNote: (note) => set({ dropNote: note }),
}));
