/**
 * Where a workspace's ledger lives on disk: the one place its folder and file names are spelled.
 * The store, the composition root, core's file-backed services and the editor (which looks for a
 * ledger before it loads the domain) all read them here; core is the layer every one may import.
 */

/** The ledger's folder at the workspace root. */
export const ledgerFolder = '.agent-ledger';

/** The embedded store's files in {@link ledgerFolder} are `ledger.db` (the image), `ledger.journal` and `ledger.lock`. */
const storeBaseName = 'ledger';
export const storeImageName = `${storeBaseName}.db`;

/** Machine-local folders inside {@link ledgerFolder}, kept out of Git. */
export const localFolders = {
  worktrees: 'worktrees',
  snapshots: 'snapshots',
  runs: 'runs',
  children: 'children',
} as const;

/** Agent definitions, relative to the workspace (committed with the project: the files are the truth). */
export const agentsFolder = `${ledgerFolder}/agents`;
/** Memory Bank entries, relative to the workspace: `<folder>/<category>/<id>.md` (committed, the truth). */
export const memoryFolder = `${ledgerFolder}/memory`;

/** The embedded store's files: the image, its journal and the lock, side by side. */
export interface StoreFiles {
  image: string;
  journal: string;
  lock: string;
}

/** The files of the embedded store whose image is `imagePath` (any name: `--db` may choose one). */
export function storeFilesOf(imagePath: string): StoreFiles {
  const base = imagePath.replace(/\.db$/, '');
  return { image: imagePath, journal: `${base}.journal`, lock: `${base}.lock` };
}

/** The default ledger's image and journal, relative to the workspace (the editor's file watcher). */
export const storeFilesGlob = `${ledgerFolder}/${storeBaseName}.{db,journal}`;

/** Every file of the default ledger's store, relative to the workspace (`.git/info/exclude`). */
export const storeFilesExclude = `${ledgerFolder}/${storeBaseName}.*`;
