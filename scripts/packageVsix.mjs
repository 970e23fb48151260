// The extension packaged as a VSIX by vsce (the one `npm start` installs into code-server).
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const vsce = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'node_modules',
  '@vscode',
  'vsce',
  'vsce',
);

/** Packages the extension at `root` into `outFile`; throws with vsce's exit status when it fails. */
export function packageVsix(root, outFile, { stdio = 'inherit' } = {}) {
  // vsce writes the file but does not create its folder (`out/` does not exist in a fresh clone).
  mkdirSync(path.dirname(outFile), { recursive: true });
  const r = spawnSync(
    process.execPath,
    [
      vsce,
      'package',
      '--no-dependencies',
      '--allow-missing-repository',
      '--skip-license',
      '--no-rewrite-relative-links',
      '--out',
      outFile,
    ],
    { cwd: root, stdio, encoding: 'utf8', env: { ...process.env, CI: 'true' } },
  );
  if (r.status !== 0)
    throw new Error(
      `packaging the extension (vsce) failed with ${r.status ?? r.signal}${r.stderr ? `: ${r.stderr.trim()}` : ''}`,
    );
  return outFile;
}
