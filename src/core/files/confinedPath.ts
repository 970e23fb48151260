/**
 * The one place that decides whether a path stays inside the workspace — by its real path,
 * symbolic links included. The folders Agent Ledger reads and writes (`.agent-ledger/`, its
 * `memory/`, `agents/`, `pipeline/`, `worktrees/`, `snapshots/`, and `.specs/`) arrive with a
 * cloned repository, so any of their components may be a link pointing anywhere: every path
 * built from an argument or from the repository goes through here before it is read or written.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerError } from '../errors';
import { writeFileDurable } from './durableWrite';
import { writeNewFile } from './writeNewFile';

/** `data.reason` of the error a path that leaves the workspace gets. */
export const outsideWorkspaceReason = 'pathOutsideWorkspace';

/** Links followed while resolving one path before giving up (Linux's own limit is 40). */
const maxLinkHops = 40;

/**
 * The real path of `target`, existing or not: the real path of its deepest existing ancestor
 * plus the rest. A dangling link is followed to where it points (writing through it would
 * create the file there), and so is a link further down.
 */
export function realPathOf(target: string): string {
  const abs = path.resolve(target);
  try {
    return fs.realpathSync.native(abs);
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  return resolveWalking(abs, 0);
}

function resolveWalking(abs: string, hops: number): string {
  const { root } = path.parse(abs);
  const parts = abs
    .slice(root.length)
    .split(path.sep)
    .filter((p) => p !== '' && p !== '.');
  let current = fs.realpathSync.native(root);
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, parts[i]);
    let stats: fs.Stats;
    try {
      stats = fs.lstatSync(next);
    } catch (err) {
      if (!isMissing(err)) throw err;
      return path.join(next, ...parts.slice(i + 1));
    }
    if (stats.isSymbolicLink()) {
      if (hops >= maxLinkHops)
        throw new LedgerError('ConfigError', `too many symbolic links while resolving ${abs}`, {
          reason: outsideWorkspaceReason,
          path: abs,
        });
      current = resolveWalking(path.resolve(current, fs.readlinkSync(next)), hops + 1);
    } else {
      current = next;
    }
  }
  return current;
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

const slashed = (p: string): string => p.split(path.sep).join('/');

/**
 * The error for `target` (absolute) leaving `root`, naming the link responsible: the first
 * component, walking down from the root, that is a symbolic link resolving outside.
 */
function outsideError(root: string, realRoot: string, target: string): LedgerError {
  const given = slashed(path.relative(root, target)) || '.';
  const parts = path.relative(root, target).split(path.sep);
  for (let i = 1; i <= parts.length; i++) {
    const candidate = path.join(root, ...parts.slice(0, i));
    let isLink = false;
    try {
      isLink = fs.lstatSync(candidate).isSymbolicLink();
    } catch {
      break;
    }
    if (!isLink) continue;
    const pointsTo = realPathOf(candidate);
    if (isInside(realRoot, pointsTo)) continue;
    const link = slashed(path.relative(root, candidate));
    return new LedgerError(
      'ConfigError',
      `${given} resolves outside the workspace: ${link} is a symbolic link to ${pointsTo}. Agent Ledger reads and writes only inside ${root}; replace the link with a real ${i === parts.length ? 'file' : 'folder'}, or remove it.`,
      { reason: outsideWorkspaceReason, path: given, link, target: pointsTo },
    );
  }
  return new LedgerError(
    'ConfigError',
    `${given} resolves outside the workspace (${realPathOf(target)}); Agent Ledger reads and writes only inside ${root}`,
    {
      reason: outsideWorkspaceReason,
      path: given,
      target: realPathOf(target),
    },
  );
}

/**
 * The real path of `target` (absolute, or relative to `root`) when it lies inside `root`'s real
 * path; throws a `ConfigError` (`data.reason: "pathOutsideWorkspace"`, with the path given, the
 * link and where it points) when it does not — lexically (`..`) or through a symbolic link.
 */
export function confinedPath(root: string, target: string): string {
  const absRoot = path.resolve(root);
  const abs = path.resolve(absRoot, target);
  if (!isInside(absRoot, abs)) {
    throw new LedgerError('ValidationError', `${target} is not a path inside the workspace ${absRoot}`, {
      reason: outsideWorkspaceReason,
      path: target,
    });
  }
  const realRoot = realPathOf(absRoot);
  const real = realPathOf(abs);
  if (!isInside(realRoot, real)) throw outsideError(absRoot, realRoot, abs);
  return real;
}

/** Whether `target` stays inside `root` (for listings, which skip what does not). */
export function isConfined(root: string, target: string): boolean {
  try {
    confinedPath(root, target);
    return true;
  } catch (err) {
    if (LedgerError.is(err) && err.data?.reason === outsideWorkspaceReason) return false;
    throw err;
  }
}

/**
 * Creates the folder `dir` (and its parents) inside `root`: checked before (mkdir follows a
 * link it meets) and again after (a link swapped in meanwhile). Returns its real path.
 */
export function mkdirConfined(root: string, dir: string, mode?: number): string {
  const real = confinedPath(root, dir);
  fs.mkdirSync(real, { recursive: true, mode });
  return confinedPath(root, dir);
}

/**
 * {@link writeFileDurable} inside `root`. The folder is created and checked again right before
 * the write; the temp file is created exclusively (never through a link) and renamed over the
 * name, which replaces a link there rather than writing through it.
 */
export function writeFileConfined(root: string, file: string, bytes: Uint8Array | string, mode?: number): void {
  confinedPath(root, file);
  const folder = mkdirConfined(root, path.dirname(path.resolve(root, file)), mode === undefined ? undefined : 0o700);
  writeFileDurable(path.join(folder, path.basename(file)), bytes, mode);
}

/** {@link writeNewFile} inside `root` (false when the name is taken, a link included). */
export function writeNewFileConfined(root: string, file: string, content: string): boolean {
  confinedPath(root, file);
  const folder = mkdirConfined(root, path.dirname(path.resolve(root, file)));
  return writeNewFile(path.join(folder, path.basename(file)), content);
}

/** The text of `file` inside `root` (ENOENT and other read errors propagate). */
export function readFileConfined(root: string, file: string): string {
  return fs.readFileSync(confinedPath(root, file), 'utf8');
}

export interface ConfinedListing {
  /** Entry names that stay inside the workspace, sorted. */
  names: string[];
  /** Entries that lead outside through a link: skipped, with the error saying why. */
  refused: { name: string; error: LedgerError }[];
}

/** The entries of folder `dir` inside `root` (none when it does not exist); links out are refused, not followed. */
export function listConfined(root: string, dir: string): ConfinedListing {
  const real = confinedPath(root, dir);
  let names: string[];
  try {
    names = fs.readdirSync(real).sort();
  } catch {
    return { names: [], refused: [] };
  }
  const listing: ConfinedListing = { names: [], refused: [] };
  for (const name of names) {
    const entry = path.join(real, name);
    try {
      // Inside a real folder inside the root, only a link can lead out.
      if (fs.lstatSync(entry).isSymbolicLink()) confinedPath(root, path.join(path.resolve(root, dir), name));
      listing.names.push(name);
    } catch (err) {
      if (isMissing(err)) continue; // removed meanwhile
      if (!LedgerError.is(err) || err.data?.reason !== outsideWorkspaceReason) throw err;
      listing.refused.push({ name, error: err });
    }
  }
  return listing;
}

/** `open(2)`'s flag that refuses a symbolic link at the last component (absent on Windows, where links need privileges). */
export const noFollow = fs.constants.O_NOFOLLOW ?? 0;

/**
 * The error for a symbolic link found where the ledger keeps a file of its own. The ledger never
 * makes links in its folders: one there was planted (a cloned repository can carry it), and
 * opening through it would reach whatever it points at.
 */
function plantedLinkError(root: string, link: string): LedgerError {
  const absRoot = path.resolve(root);
  const shown = slashed(path.relative(absRoot, link)) || link;
  const pointsTo = realPathOf(link);
  const outside = !isInside(realPathOf(absRoot), pointsTo);
  return new LedgerError(
    'ConfigError',
    `${shown} is a symbolic link${outside ? ` to ${pointsTo}, outside the workspace` : ''}: Agent Ledger never reads or writes its own files through a link. Remove it.`,
    { reason: outside ? outsideWorkspaceReason : 'linkInLedgerFolder', path: shown, link: shown, target: pointsTo },
  );
}

/**
 * Checks a folder where the ledger keeps files of its own (a child's, the runs'): its real path
 * stays inside `root`, and none of `names` in it is a symbolic link. Creates nothing, so a call
 * refused here has written nothing. Returns the folder's real path.
 */
export function checkOwnFiles(root: string, dir: string, names: readonly string[]): string {
  const real = confinedPath(root, dir);
  const shown = path.resolve(path.resolve(root), dir);
  for (const name of names) {
    let stats: fs.Stats;
    try {
      stats = fs.lstatSync(path.join(real, name));
    } catch (err) {
      if (isMissing(err)) continue;
      throw err;
    }
    if (stats.isSymbolicLink()) throw plantedLinkError(root, path.join(shown, name));
    // A link further down (`exec-1.d/mcp.json`): its folder must be real and inside too.
    if (name.includes('/') || name.includes(path.sep)) confinedPath(root, path.join(real, name));
  }
  return real;
}

/**
 * Opens `file`, a file the ledger keeps in one of its own folders, without following a link at
 * its name (`O_NOFOLLOW`): a planted link makes the open fail with a ConfigError naming it
 * instead of reaching its target. `root` only names the link in the message.
 */
export function openOwnFileSync(root: string, file: string, flags: number, mode = 0o600): number {
  try {
    return fs.openSync(file, flags | noFollow, mode);
  } catch (err) {
    throw ownFileError(root, file, err);
  }
}

/** {@link openOwnFileSync}, asynchronous. */
export async function openOwnFile(root: string, file: string, flags: number): Promise<fs.promises.FileHandle> {
  try {
    return await fs.promises.open(file, flags | noFollow);
  } catch (err) {
    throw ownFileError(root, file, err);
  }
}

function ownFileError(root: string, file: string, err: unknown): unknown {
  if ((err as NodeJS.ErrnoException).code !== 'ELOOP') return err;
  return isLink(file) ? plantedLinkError(root, file) : err;
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
