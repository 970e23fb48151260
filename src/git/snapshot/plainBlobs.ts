/**
 * Blobs of changed work files hashed and written in this process, without `git hash-object`,
 * where git would store the file's bytes exactly as they are: no attribute can apply to it and
 * `core.autocrlf` is off. That is decided afresh for every snapshot, never from a process that
 * read the settings earlier:
 *
 * - Settings: `git config --list --show-origin -z` (one process) is asked again whenever a file
 *   it read — or a standard place a config file could appear (system, global, XDG, the
 *   repository's `config` and `config.worktree`) — differs in content from when it was asked
 *   (compared, not stat data: a rewrite within the clock's tick can keep those). A configuration with includes (`include.*`, `includeIf.*`: an included file
 *   may appear later), `core.autocrlf` not off, a `core.attributesFile`, any `attr.*` setting or
 *   a `GIT_ATTR_SOURCE` in the environment hands the files to `hash-object`.
 * - Attributes: the default attributes file (XDG), `info/attributes`, and a `.gitattributes` in
 *   any folder from the top to each file (present in the work tree in any form, ignored or not)
 *   hand them to `hash-object` too; a `.gitattributes` among the changed paths sends the whole
 *   snapshot to the index route (changedTree.ts: a deleted one still applies in `git add`).
 *
 * `core.fileMode` from the same answer says whether a new file's executable bit counts.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { GitRepo } from '../gitRepo';
import { writeLooseObject } from './looseObject';
import { foldersOf } from './treeObjects';
import type { ObjectAlgorithm } from './looseObject';

/** A file larger than this goes to `hash-object` (git streams it; here it would be held whole). */
const plainSizeLimit = 4 * 1024 * 1024;
/** A config file larger than this is not compared here: the configuration is asked every time. */
const configSizeLimit = 1024 * 1024;
let neverSame = 0;

/** What the repository's configuration says about writing work files' blobs. */
export interface BlobSettings {
  /** No setting of git's can change a file's bytes on the way into a blob (attributes aside, checked per path). */
  plain: boolean;
  /** `core.fileMode` (git's default: true). */
  fileMode: boolean;
}

interface Probe {
  fingerprint: string;
  files: string[];
  settings: BlobSettings;
}

/** By repository (common dir and git dir): the last answer and the files it depends on. */
const probes = new Map<string, Promise<Probe>>();

/** How many times the configuration was asked (tests check it is asked again after a change, and only then). */
let asked = 0;
export function blobSettingsAsked(): number {
  return asked;
}

/** How many snapshots wrote their work files' blobs here and how many by `hash-object` (tests and benchmarks). */
const routes = { plain: 0, hashObject: 0 };
export function blobRoutesTaken(): Readonly<typeof routes> {
  return { ...routes };
}
export function noteBlobRoute(route: keyof typeof routes): void {
  routes[route]++;
}

/** The repository's blob settings as they are now (a config process only when a config file changed). */
export async function blobSettings(repo: GitRepo): Promise<BlobSettings> {
  const key = `${repo.commonDir}\0${repo.gitDir}`;
  const known = probes.get(key);
  if (known) {
    const probe = await known.catch(() => null);
    if (probe && (await fingerprint(probe.files)) === probe.fingerprint) return probe.settings;
    if (probes.get(key) !== known) return blobSettings(repo); // another snapshot is asking meanwhile
  }
  const asking = ask(repo);
  probes.set(key, asking);
  asking.catch(() => probes.delete(key));
  return (await asking).settings;
}

async function ask(repo: GitRepo): Promise<Probe> {
  asked++;
  const standard = standardConfigFiles(repo);
  const before = await fingerprint(standard);
  const { stdout } = await repo.run(['config', '--list', '--show-origin', '-z']);
  const { settings, origins } = parseConfig(stdout.toString('utf8'));
  // git names the repository's own file relative to where it ran (`.git/config`).
  const files = [...new Set([...standard, ...origins.map((o) => path.resolve(repo.root, o))])];
  // A file written while git read it: not to be trusted, asked again next time.
  const after = await fingerprint(standard);
  return { fingerprint: after === before ? await fingerprint(files) : 'changed while read', files, settings };
}

/** The places git reads configuration from, present or not. */
function standardConfigFiles(repo: GitRepo): string[] {
  const home = process.env.HOME ?? os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  const files = [
    path.join(repo.commonDir, 'config'),
    path.join(repo.commonDir, 'config.worktree'),
    path.join(repo.gitDir, 'config.worktree'),
  ];
  files.push(process.env.GIT_CONFIG_SYSTEM || '/etc/gitconfig');
  if (process.env.GIT_CONFIG_GLOBAL) files.push(process.env.GIT_CONFIG_GLOBAL);
  else files.push(path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config'));
  return files;
}

/**
 * Each file's content digest ('-' where absent): exact where times are not (a file rewritten twice
 * within the clock's tick, same size, its inode number reused, has the same stat data). Config
 * files are small; one too large to read here is never trusted.
 */
async function fingerprint(files: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const f of files) {
    let content: Buffer | null = null;
    try {
      const st = statSync(f);
      if (st.size > configSizeLimit) return `never the same ${++neverSame}`;
      content = readFileSync(f);
    } catch {
      content = null;
    }
    hash.update(`${f}\0${content ? `${content.length}\0` : '-\0'}`);
    if (content) hash.update(content);
  }
  return hash.digest('hex');
}

/** The settings from `git config --list --show-origin -z` (origin, then `key\nvalue`, each ending in NUL). */
export function parseConfig(output: string): { settings: BlobSettings; origins: string[] } {
  const records = output.split('\0');
  const origins: string[] = [];
  let plain = !process.env.GIT_ATTR_SOURCE;
  let autocrlf: boolean | null = false;
  let fileMode: boolean | null = true;
  for (let i = 0; i + 1 < records.length; i += 2) {
    const origin = records[i];
    if (origin.startsWith('file:')) origins.push(origin.slice('file:'.length));
    const record = records[i + 1];
    const eol = record.indexOf('\n');
    const key = (eol < 0 ? record : record.slice(0, eol)).toLowerCase();
    const value = eol < 0 ? null : record.slice(eol + 1);
    if (
      key.startsWith('include.') ||
      key.startsWith('includeif.') ||
      key.startsWith('attr.') ||
      key === 'core.attributesfile'
    )
      plain = false;
    else if (key === 'core.autocrlf') autocrlf = gitBool(value);
    else if (key === 'core.filemode') fileMode = gitBool(value);
  }
  // `input`, true, or anything git reads some other way.
  if (autocrlf !== false) plain = false;
  // A core.fileMode git would read some other way: leave new files' modes to git.
  if (fileMode === null) plain = false;
  return { settings: { plain, fileMode: fileMode ?? true }, origins };
}

/** A boolean as git reads it; null for anything else (a key without `=` is true). */
function gitBool(value: string | null): boolean | null {
  if (value === null) return true;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'yes' || v === 'on' || v === '1') return true;
  if (v === 'false' || v === 'no' || v === 'off' || v === '0' || v === '') return false;
  return null;
}

/**
 * Whether no attribute file could apply to any of `paths` (byte strings): none in a folder on the
 * way to one, no `info/attributes`, no default attributes file. (A changed `.gitattributes` never
 * gets here: changedTree.ts leaves such a snapshot to the index route.)
 */
export function noAttributesApply(repo: GitRepo, paths: readonly string[]): boolean {
  const home = process.env.HOME ?? os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  const candidates: Buffer[] = [
    path.join(repo.commonDir, 'info', 'attributes'),
    path.join(repo.gitDir, 'info', 'attributes'),
    path.join(xdg, 'git', 'attributes'),
  ].map((f) => Buffer.from(f, 'utf8'));
  for (const folder of foldersOf(paths))
    candidates.push(inWorkTree(repo, folder === '' ? '.gitattributes' : `${folder}/.gitattributes`));
  // Anything there (a file, a folder, a symlink, unreadable) counts: only a sure absence does not.
  return candidates.every((file) => {
    try {
      lstatSync(file);
      return false;
    } catch (ex) {
      return (ex as NodeJS.ErrnoException).code === 'ENOENT';
    }
  });
}

/**
 * The blob ids of `files` (byte-string paths; `content` where already read), written as loose
 * objects here; null where git should hash them (a file too large, gone, or not a plain
 * objects folder).
 */
export async function writePlainBlobs(
  repo: GitRepo,
  files: readonly { path: string; content?: Buffer }[],
  algorithm: ObjectAlgorithm,
): Promise<string[] | null> {
  const objects = path.join(repo.commonDir, 'objects');
  const ids = await Promise.all(
    files.map(async (f) => {
      const file = inWorkTree(repo, f.path);
      const content = f.content ?? readWorkFile(file, plainSizeLimit);
      if (!content) return null;
      return writeLooseObject(objects, 'blob', content, algorithm);
    }),
  );
  if (ids.includes(null)) return null;
  routes.plain++;
  return ids as string[];
}

/** The file's bytes, never through a symlink put in its place since it was looked at; null if not a regular file of at most `limit` bytes. */
export function readWorkFile(file: Buffer, limit: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > limit) return null;
    return readFileSync(fd);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Whether a file of `size` bytes is hashed here rather than by git. */
export function plainSize(size: number): boolean {
  return size <= plainSizeLimit;
}

/** The file at repository path `p` (a byte string), as a Buffer path: the name's bytes unchanged. */
export function inWorkTree(repo: GitRepo, p: string): Buffer {
  return Buffer.concat([Buffer.from(`${repo.root}${path.sep}`, 'utf8'), Buffer.from(p, 'latin1')]);
}
