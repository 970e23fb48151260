import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * V8's compile cache for the CLI bundle (Node ≥ 22.1, `module.enableCompileCache`): the 3 MB
 * bundle is parsed and its functions compiled once, not at every start of every MCP server
 * (docs/performance.md). A cache file is code this process will run, so the folder must be one
 * nobody else can write: `$XDG_CACHE_HOME/agent-ledger/compile-cache` (default `~/.cache/…`),
 * created by us with mode 0700, and used only when it and its parent are directories (not links)
 * owned by this user with no write for group or others (the parent may also be root's). Anything
 * else — Windows, an older Node, a folder that fails a check, an error — runs without the cache.
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off (Node's own switch).
 */
export function enablePrivateCompileCache(env: NodeJS.ProcessEnv = process.env): string | undefined {
  try {
    const enable = nodeModule().enableCompileCache;
    if (typeof enable !== 'function' || process.platform === 'win32' || env.NODE_DISABLE_COMPILE_CACHE)
      return undefined;
    const dir = privateCacheFolder(env);
    if (dir === undefined) return undefined;
    enable(dir);
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * Writes what has been compiled so far to the cache now (Node ≥ 22.10), instead of at exit: an
 * MCP server lives long and is often killed rather than exited, and by its first answered call
 * it has compiled what every start needs.
 */
export function flushCompileCache(): void {
  try {
    nodeModule().flushCompileCache?.();
  } catch {
    // no cache this time
  }
}

/** node:module's compile-cache API, newer than Node 20's typings. */
function nodeModule(): { enableCompileCache?: (dir: string) => unknown; flushCompileCache?: () => void } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- typed here by hand (absent from Node 20's typings)
  return require('node:module') as { enableCompileCache?: (dir: string) => unknown; flushCompileCache?: () => void };
}

/** The cache folder, made private if new; undefined unless every check passes. */
export function privateCacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  const ours = path.join(base, 'agent-ledger');
  const dir = path.join(ours, 'compile-cache');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The parent of our folder could be used to swap it for another: it must not be writable by anyone else either.
  if (!isSafeFolder(base, uid, true) || !isSafeFolder(ours, uid, false) || !isSafeFolder(dir, uid, false))
    return undefined;
  return dir;
}

/** A real directory (not a link) owned by `uid` (or root, where allowed), writable by nobody else; ours must also be unreadable by others. */
function isSafeFolder(folder: string, uid: number, rootMayOwn: boolean): boolean {
  const stat = fs.lstatSync(folder);
  if (!stat.isDirectory()) return false;
  if (stat.uid !== uid && !(rootMayOwn && stat.uid === 0)) return false;
  return rootMayOwn ? (stat.mode & 0o022) === 0 : (stat.mode & 0o077) === 0;
}
