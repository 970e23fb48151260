/**
 * Runs `load` now, or once more after the running one when asked again meanwhile: a burst of
 * store changes costs at most two reads, and the last one sees the latest state.
 */
export function coalesced(load: () => Promise<void>, onError: (err: unknown) => void): () => void {
  let running = false;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    load()
      .catch(onError)
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          run();
        }
      });
  };
  return run;
}
