import { storeFilesOf } from '../../core/ledgerFiles';

/** The files of one store: the image, its journal and the lock, side by side. */
export interface StorePaths {
  image: string;
  journal: string;
  lock: string;
  /** The image before the last checkpoint: with `prevJournal` it rebuilds `image` when that is damaged. */
  prevImage: string;
  /** The journal generation the last checkpoint folded into `image`. */
  prevJournal: string;
}

export function storePaths(dbPath: string): StorePaths {
  const files = storeFilesOf(dbPath);
  return { ...files, prevImage: `${files.image}.prev`, prevJournal: `${files.journal}.prev` };
}
