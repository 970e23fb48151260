import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../../core/emitter';

/**
 * Calls `onChange` soon after the journal file changes: fs.watch on its folder for speed (the
 * journal is replaced on checkpoints, so the file itself cannot be watched), plus polling every
 * `pollMs` where fs.watch is unreliable (network file systems, some containers).
 */
export function watchJournal(journal: string, pollMs: number, onChange: () => void): Disposable {
  const tick = (): void => {
    try {
      onChange();
    } catch (err) {
      console.error('[agent-ledger] store refresh failed:', err);
    }
  };
  const timer = setInterval(tick, pollMs);
  timer.unref();
  let fsWatcher: fs.FSWatcher | undefined;
  try {
    fsWatcher = fs.watch(path.dirname(journal), { persistent: false }, (_event, name) => {
      if (name === path.basename(journal)) tick();
    });
    fsWatcher.on('error', () => undefined);
  } catch {
    // Polling alone is enough.
  }
  return {
    dispose: () => {
      clearInterval(timer);
      fsWatcher?.close();
    },
  };
}
