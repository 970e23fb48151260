import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { tempDir } from './tmp';

/**
 * A real, small file system (tmpfs) mounted on a temporary folder, for the disk-full tests: writes
 * on it fail with ENOSPC exactly as on a full disk. Needs root (CI runs as root); `tinyDiskSkip`
 * says why a test skips elsewhere.
 */
export interface TinyDisk {
  dir: string;
  /** Takes `bytes` of the disk with a ballast file, to give back later with `free`. */
  reserve(bytes: number): void;
  /** Takes whatever room is left, with the same ballast. */
  fillUp(): void;
  /** Gives back what `reserve` and `fillUp` took (the ballast goes). */
  free(): void;
  unmount(): void;
}

export const tinyDiskSkip: string | false = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'mounting a tmpfs needs root on Linux';
  const probe = tempDir('agent-ledger-tinydisk-probe-');
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]).status === 0;
  if (mounted) spawnSync('umount', [probe]);
  return mounted ? false : 'this machine does not let root mount a tmpfs';
})();

/** Mounts a tmpfs of `bytes` (rounded up to pages) on a new temporary folder. */
export function mountTinyDisk(bytes: number, owner?: { uid: number; gid: number }): TinyDisk {
  const parent = tempDir('agent-ledger-tinydisk-');
  const dir = path.join(parent, 'disk');
  fs.mkdirSync(dir);
  const options = [`size=${bytes}`, 'mode=0700', ...(owner ? [`uid=${owner.uid}`, `gid=${owner.gid}`] : [])];
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', options.join(','), 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mount failed: ${r.stderr}`);
  // Another user (the PostgreSQL server's) may need to reach it.
  fs.chmodSync(parent, 0o711);
  const ballast = path.join(dir, 'ballast');
  let mounted = true;
  return {
    dir,
    reserve(n) {
      fs.writeFileSync(ballast, Buffer.alloc(n, 1));
    },
    fillUp() {
      const fd = fs.openSync(ballast, 'a');
      try {
        for (const chunk = Buffer.alloc(4096, 1); ;) fs.writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        fs.closeSync(fd);
      }
    },
    free() {
      fs.rmSync(ballast, { force: true });
    },
    unmount() {
      if (!mounted) return;
      mounted = false;
      const u = spawnSync('umount', [dir], { encoding: 'utf8' });
      if (u.status !== 0) spawnSync('umount', ['-l', dir]);
    },
  };
}
