/** Packages the extension at `root` into `outFile` with vsce; throws when it fails. */
export function packageVsix(root: string, outFile: string, options?: { stdio?: 'inherit' | 'pipe' }): string;
