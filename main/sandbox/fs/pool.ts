/** A small concurrency pool: file work in parallel without unbounded promises. */

/** Runs `work(0..count-1)` with at most `limit` in flight; stops at the first failure or when `check` throws. */
export async function runPool(count: number, limit: number, work: (index: number) => Promise<void>, check: () => void = () => {}): Promise<void> {
  let next = 0;
  let failure: unknown;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < count) {
      const index = next++;
      try {
        check();
        await work(index);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  if (failure !== undefined) throw failure;
}
