/**
 * The snapshot's tree built from what `git status` reported, without `git add` and
 * `git write-tree` (each of those reads and rewrites the whole private index: at 20,000 files
 * they cost as much again as the status itself).
 *
 * The working state is HEAD's tree plus every difference status lists (statusReport.ts):
 * an entry the index changed keeps the index's mode and id (status prints both); a working file
 * that changed, or an untracked one, is hashed — regular files here where git would store
 * their bytes unchanged (no attribute, no autocrlf: plainBlobs.ts), else by one `git hash-object
 * -w --stdin-paths` (git's own clean/text/eol filters apply, as in `git add`), a symlink's
 * target here (never followed); a submodule takes the commit its snapshot recorded. Only the folders on
 * the way to a change are rebuilt: their entries in HEAD come from a `git cat-file --batch` kept
 * running (batchReader.ts), and the new tree objects are written here as loose objects
 * (looseObject.ts). Neither git process reads the index; they run side by side. Trees read or
 * written are cached by their immutable names (treeObjects.ts).
 *
 * Returns null — the caller takes the index route (`add` + `write-tree`) — wherever this could
 * differ from `git add --all && git write-tree`: a conflict, a rename record, a nested
 * repository, an unborn branch, a path with a newline, a file whose type is not what status
 * said, a folder on the way that is a symlink, a tracked file with CRLF line ends (`add` keeps
 * CRLF when the index already holds some, `hash-object` cannot know), a changed `.gitattributes`
 * (`add` reads one the work tree lost from the index), a mode git would normalise, or an objects
 * folder that is not a plain folder.
 */
import { readlinkSync } from 'node:fs';
import { lstatOrNull } from './fileStat';
import * as path from 'node:path';
import { foldersOf, readTrees, rememberTree, treeMode } from './treeObjects';
import type { TreeObjectEntry } from './treeObjects';
import { gitlinkMode as gitlink } from '../parsers';
import type { GitRepo } from '../gitRepo';
import { objectAlgorithm, objectId, writeLooseObject } from './looseObject';
import { inWorkTree, noAttributesApply, noteBlobRoute, plainSize, readWorkFile, writePlainBlobs } from './plainBlobs';
import type { BlobSettings } from './plainBlobs';
import type { ObjectAlgorithm } from './looseObject';
import type { StatusEntry } from './statusReport';
import type { SubmoduleState } from '../submodules';

type TreeEntry = TreeObjectEntry;

const symlink = '120000';
/** The modes git writes into a tree built from an index; any other (old, odd trees) is left to git. */
const canonicalModes = new Set([treeMode, '100644', '100755', symlink, gitlink]);
/** A tracked file larger than this is left to the index route rather than read here for its line ends. */
const crlfScanLimit = 16 * 1024 * 1024;

/** A work file to read: its path (byte string) and the mode it gets. */
interface WorkFile {
  path: string;
  mode: string;
  /** Its bytes where already read (a tracked file's, scanned for CRLF). */
  content?: Buffer;
}

/** The tree id of the working state, or null when the index route must build it. */
export async function changedTree(
  repo: GitRepo,
  head: string | null,
  entries: readonly StatusEntry[],
  submodules: readonly SubmoduleState[],
  settings: Promise<BlobSettings>,
): Promise<string | null> {
  const algorithm = head ? objectAlgorithm(head) : null;
  if (!head || !algorithm) return null;
  if (entries.some((e) => e.kind === 'other' || e.path.includes('\n'))) return null;
  // `git add` reads an attributes file the work tree lost (or holds as a symlink) from the index; hash-object does not.
  if (entries.some((e) => e.path === '.gitattributes' || e.path.endsWith('/.gitattributes'))) return null;
  // The folders on the way to every changed path are known from the report: HEAD's entries of
  // them are read while the changed files are hashed.
  const folders = foldersOf([...entries.map((e) => e.path), ...submodules.map((s) => byteString(s.path))]);
  const [finals, bases] = await Promise.all([
    finalEntries(repo, entries, submodules, algorithm, settings),
    baseListings(repo, head, folders, algorithm),
  ]);
  if (!finals || !bases) return null;
  return writeTrees(repo, folders, bases, finals, algorithm);
}

/** What each changed path holds in the snapshot (null: absent), blobs of work files written. */
async function finalEntries(
  repo: GitRepo,
  entries: readonly StatusEntry[],
  submodules: readonly SubmoduleState[],
  algorithm: ObjectAlgorithm,
  settings: Promise<BlobSettings>,
): Promise<Map<string, TreeEntry | null> | null> {
  const finals = new Map<string, TreeEntry | null>();
  const recorded = new Map(submodules.map((s) => [byteString(s.path), s]));
  const work: { path: string; mode: string | null }[] = [];
  for (const entry of entries) {
    if (entry.kind === 'other' || entry.path.includes('\n')) return null;
    if (entry.kind === 'untracked') {
      work.push({ path: entry.path, mode: null });
      continue;
    }
    const { x, y, modeIndex, modeWorktree, idIndex } = entry;
    if (y === 'D' || (y === '.' && x === 'D')) finals.set(entry.path, null);
    else if (y === '.') finals.set(entry.path, { mode: modeIndex, id: idIndex });
    else if (modeIndex === gitlink || modeWorktree === gitlink) {
      // A submodule whose HEAD moved: the commit its snapshot recorded (below), never guessed.
      if (modeWorktree !== gitlink || !recorded.has(entry.path)) return null;
    } else work.push({ path: entry.path, mode: modeWorktree });
  }
  for (const [p, s] of recorded) finals.set(p, { mode: gitlink, id: s.commit });

  const files: WorkFile[] = [];
  if (work.length > 0) {
    const { fileMode } = await settings;
    // Synchronous file calls: a few microseconds each, not a thread-pool hand-off (looseObject.ts).
    const safeFolders = new Map<string, boolean>();
    for (const { path: p, mode } of work) {
      if (!foldersAreReal(repo, p, safeFolders)) return null;
      const file = inWorkTree(repo, p);
      const st = lstatOrNull(file);
      if (!st) return null; // gone since status: the index route sees it as it is now
      if (st.isSymbolicLink()) {
        if (mode !== null && mode !== symlink) return null;
        // The link's target is the blob; what it points at is never read.
        const id = await writeLooseObject(
          objectsDir(repo),
          'blob',
          readlinkSync(file, { encoding: 'buffer' }),
          algorithm,
        );
        if (!id) return null;
        finals.set(p, { mode: symlink, id });
        continue;
      }
      if (!st.isFile()) return null;
      if (mode === null) {
        // As `git add` records a new file: executable only where git trusts the executable bit.
        files.push({ path: p, mode: (st.mode & 0o100) !== 0 && fileMode ? '100755' : '100644' });
        continue;
      }
      if (mode !== '100644' && mode !== '100755') return null;
      const content = st.size > crlfScanLimit ? null : readWorkFile(file, crlfScanLimit);
      if (!content || content.includes('\r\n')) return null;
      files.push({ path: p, mode, content: plainSize(content.length) ? content : undefined });
    }
  }
  if (files.length > 0) {
    const ids = (await plainBlobIds(repo, files, await settings, algorithm)) ?? (await hashFiles(repo, files));
    if (!ids) return null;
    files.forEach((f, i) => finals.set(f.path, { mode: f.mode, id: ids[i] }));
  }
  return finals;
}

/** Each folder's entries in HEAD (empty where HEAD has no folder there), from the repository's running `cat-file --batch`. */
async function baseListings(
  repo: GitRepo,
  head: string,
  folders: Set<string>,
  algorithm: ObjectAlgorithm,
): Promise<Map<string, Map<string, TreeEntry>> | null> {
  const names = [...folders];
  const trees = await readTrees(
    repo,
    names.map((f) => (f === '' ? `${head}^{tree}` : `${head}:${f}`)),
    algorithm,
  );
  // HEAD's own tree is always there: a reader that says otherwise is not to be believed.
  if (!trees[0]) return null;
  // Nothing there in HEAD, or a file or a submodule where a folder is now: the folder starts empty.
  return new Map(names.map((folder, i) => [folder, trees[i] ?? new Map<string, TreeEntry>()]));
}

/** Applies the changes, writes the rebuilt folders deepest first, and returns the top tree's id. */
async function writeTrees(
  repo: GitRepo,
  folders: Set<string>,
  listings: Map<string, Map<string, TreeEntry>>,
  finals: Map<string, TreeEntry | null>,
  algorithm: ObjectAlgorithm,
): Promise<string | null> {
  for (const [p, entry] of finals) {
    const slash = p.lastIndexOf('/');
    const listing = listings.get(slash < 0 ? '' : p.slice(0, slash))!;
    const name = p.slice(slash + 1);
    if (entry) listing.set(name, entry);
    else listing.delete(name);
  }
  const bodies: Buffer[] = [];
  const built: [string, Map<string, TreeEntry>][] = [];
  const depth = (f: string) => (f === '' ? -1 : f.split('/').length);
  let top: string | null = null;
  for (const folder of [...folders].sort((a, b) => depth(b) - depth(a))) {
    const listing = listings.get(folder)!;
    const body = treeBody(listing);
    if (!body) return null;
    if (folder === '') {
      bodies.push(body);
      top = objectId('tree', body, algorithm);
      built.push([top, new Map(listing)]);
      continue;
    }
    const slash = folder.lastIndexOf('/');
    const parent = listings.get(slash < 0 ? '' : folder.slice(0, slash))!;
    const name = folder.slice(slash + 1);
    const replaced = finals.get(folder);
    if (listing.size === 0) {
      // git writes no empty folder; a file put in its place stays.
      if (parent.get(name)?.mode === treeMode) parent.delete(name);
      continue;
    }
    if (replaced) return null; // a file and a folder at one path: not a state a work tree can be in
    bodies.push(body);
    const id = objectId('tree', body, algorithm);
    built.push([id, new Map(listing)]);
    parent.set(name, { mode: treeMode, id });
  }
  const written = await Promise.all(bodies.map((b) => writeLooseObject(objectsDir(repo), 'tree', b, algorithm)));
  if (written.includes(null)) return null;
  // The next snapshot and the diff against this one read them from here (treeObjects.ts).
  for (const [id, listing] of built) rememberTree(id, listing);
  return top;
}

/** A tree object's body, entries in git's order (a folder sorts as its name followed by `/`); null for a mode git would rewrite. */
function treeBody(listing: Map<string, TreeEntry>): Buffer | null {
  const sorted = [...listing].map(([name, e]) => ({ key: e.mode === treeMode ? `${name}/` : name, name, e }));
  if (sorted.some(({ e }) => !canonicalModes.has(e.mode))) return null;
  sorted.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return Buffer.concat(
    sorted.flatMap(({ name, e }) => [Buffer.from(`${e.mode} ${name}\0`, 'latin1'), Buffer.from(e.id, 'hex')]),
  );
}

/** Regular files' blob ids written here where git would store their bytes unchanged (plainBlobs.ts), else null. */
async function plainBlobIds(
  repo: GitRepo,
  files: readonly WorkFile[],
  settings: BlobSettings,
  algorithm: ObjectAlgorithm,
): Promise<string[] | null> {
  if (!settings.plain) return null;
  const paths = files.map((f) => f.path);
  if (!noAttributesApply(repo, paths)) return null;
  return writePlainBlobs(repo, files, algorithm);
}

/** Regular files' blob ids (written), by one `git hash-object -w --stdin-paths`: git's filters for each path apply. */
async function hashFiles(repo: GitRepo, files: readonly WorkFile[]): Promise<string[] | null> {
  const input = Buffer.from(files.map((f) => `${f.path}\n`).join(''), 'latin1');
  noteBlobRoute('hashObject');
  const out = await repo.text(['hash-object', '-w', '--stdin-paths'], { input });
  const ids = out.split('\n');
  return ids.length === files.length && ids.every((id) => objectAlgorithm(id)) ? ids : null;
}

/** Whether every folder on the way to `p` is a folder, not a symlink to elsewhere (hash-object would follow it). */
function foldersAreReal(repo: GitRepo, p: string, known: Map<string, boolean>): boolean {
  for (let at = p.indexOf('/'); at > 0; at = p.indexOf('/', at + 1)) {
    const folder = p.slice(0, at);
    let real = known.get(folder);
    if (real === undefined) {
      real = lstatOrNull(inWorkTree(repo, folder))?.isDirectory() ?? false;
      known.set(folder, real);
    }
    if (!real) return false;
  }
  return true;
}

function objectsDir(repo: GitRepo): string {
  return path.join(repo.commonDir, 'objects');
}

/** A path from elsewhere (UTF-8 text) as a byte string like status's paths. */
function byteString(p: string): string {
  return Buffer.from(p, 'utf8').toString('latin1');
}
