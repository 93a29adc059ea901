/**
 * Tool runs: each run's state and output as far as this window has seen it. Output arrives as
 * runOutput events and, to fill gaps (a reconnect, a host without push), by asking for what came
 * after the last chunk seen.
 */
import { create } from 'zustand';
import type { RunChunk, RunInfo } from '../../../shared/dto.ts';
import { api } from '../api/index.ts';

/** A run with the output received so far. */
export interface RunView {
  info: RunInfo;
  chunks: RunChunk[];
  lastSeq: number;
}

/** Runs by id and their actions. */
export interface RunsState {
  runs: Record<string, RunView>;
  start(planId: string): Promise<RunInfo>;
  stop(runId: string): Promise<void>;
  /** Fetches the run's state and any output after the last chunk seen. */
  catchUp(runId: string): Promise<RunView | null>;
  /** Adds one pushed chunk (ignored when already seen or out of order: catchUp fills gaps). */
  append(runId: string, chunk: RunChunk): void;
}

/** Output kept per run in the window. */
const MAX_CHUNKS = 20_000;

/** The one store of runs. */
export const useRuns = create<RunsState>()((set, get) => {
  const put = (view: RunView) => set({ runs: { ...get().runs, [view.info.id]: view } });
  return {
    runs: {},
    start: async (planId) => {
      const info = await api.runTool({ plan: planId });
      put({ info: { ...info, output: [] }, chunks: info.output, lastSeq: info.lastSeq });
      return info;
    },
    stop: async (runId) => {
      await api.stopRun({ runId });
      await get().catchUp(runId);
    },
    catchUp: async (runId) => {
      const known = get().runs[runId];
      const info = await api.showRun({ runId, afterSeq: known?.lastSeq ?? -1 });
      const current = get().runs[runId];
      const chunks = [
        ...(current?.chunks ?? []),
        ...info.output.filter((c) => c.seq > (current?.lastSeq ?? -1)),
      ].slice(-MAX_CHUNKS);
      const view = {
        info: { ...info, output: [] },
        chunks,
        lastSeq: Math.max(current?.lastSeq ?? -1, info.lastSeq),
      };
      put(view);
      return view;
    },
    append: (runId, chunk) => {
      const current = get().runs[runId];
      if (!current || chunk.seq !== current.lastSeq + 1) return;
      put({ ...current, chunks: [...current.chunks, chunk].slice(-MAX_CHUNKS), lastSeq: chunk.seq });
    },
  };
});
