import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../../core/emitter';

/**
 * Calls `onChange` soon after the journal file changes: fs.watch on its folder for speed (the
 * journal is replaced on checkpoints, so the file itself cannot be watched), plus polling every
 * `pollMs` where fs.watch is unreliable (network file systems, some containers).
 */
export function watchJournal(journal: string, pollMs: number, onChange: () => void): Disposable {
  let fsWatcher: fs.FSWatcher | undefined;
  // The folder may not exist yet (a reader opened before any process wrote): watched once it does.
  const watchFolder = (): void => {
    try {
      fsWatcher = fs.watch(path.dirname(journal), { persistent: false }, (_event, name) => {
        if (name === path.basename(journal)) tick();
      });
      fsWatcher.on('error', () => undefined);
    } catch {
      // Polling alone until the folder exists (or for good where fs.watch cannot work).
    }
  };
  const tick = (): void => {
    try {
      onChange();
    } catch (err) {
      console.error('[agent-ledger] store refresh failed:', err);
    }
  };
  const poll = (): void => {
    if (!fsWatcher) watchFolder();
    tick();
  };
  const timer = setInterval(poll, pollMs);
  timer.unref();
  watchFolder();
  return {
    dispose: () => {
      clearInterval(timer);
      fsWatcher?.close();
    },
  };
}
