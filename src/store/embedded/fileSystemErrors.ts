import { StoreError } from '../errors';

/** errno codes of a file system with no room left: the disk is full, or the user's quota is spent. */
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);

/**
 * A file-system failure of the embedded store as a coded StoreError: `diskFull` when the disk
 * (or the user's quota) holding `folder` has no room left; anything else is returned as it is.
 * The write it stopped was rolled back (its journal record never completed), so nothing
 * acknowledged is lost and the same write succeeds once there is room.
 */
export function fileSystemStoreError(err: unknown, folder: string): unknown {
  if (err instanceof StoreError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !NO_SPACE.has(code)) return err;
  return new StoreError(
    'diskFull',
    `no space left on the disk holding ${folder} (${code}): the write was not made; free some space and retry`,
    { cause: err },
  );
}
