/** The files of one store: the image, its journal and the lock, side by side. */
export interface StorePaths {
  image: string;
  journal: string;
  lock: string;
}

export function storePaths(dbPath: string): StorePaths {
  const base = dbPath.replace(/\.db$/, '');
  return { image: dbPath, journal: `${base}.journal`, lock: `${base}.lock` };
}
