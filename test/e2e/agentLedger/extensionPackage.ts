// Builds and packages the real extension once per run: `vsce package` (its vscode:prepublish
// makes the production bundles), then the VSIX is unpacked so in-host tests load exactly what
// was packaged.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../harness/paths';
import { packageExtension } from '../harness/vsix';
import { unzip } from './unzip';

export const outRoot = path.join(repoRoot, 'out', 'e2e');

export interface PackagedExtension {
  vsixPath: string;
  bytes: number;
  /** The VSIX's `extension/` folder, unpacked: an extensionDevelopmentPath. */
  unpackedDir: string;
  files: string[];
  id: string;
  version: string;
}

export async function packageAgentLedger(): Promise<PackagedExtension> {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    name: string;
    publisher: string;
    version: string;
  };
  const { vsixPath, bytes } = await packageExtension(
    repoRoot,
    path.join(outRoot, `agent-ledger-${manifest.version}.vsix`),
    [
      // README.md links to docs/ in the repository, which has no public URL yet.
      '--no-rewrite-relative-links',
    ],
  );
  const unpacked = path.join(outRoot, 'agent-ledger-vsix');
  const files = unzip(vsixPath, unpacked);
  return {
    vsixPath,
    bytes,
    unpackedDir: path.join(unpacked, 'extension'),
    files,
    id: `${manifest.publisher}.${manifest.name}`,
    version: manifest.version,
  };
}

/** Where `code-server --install-extension` put the VSIX (`<publisher>.<name>-<version>`). */
export function installedExtensionDir(extensionsDir: string, pkg: PackagedExtension): string {
  return path.join(extensionsDir, `${pkg.id}-${pkg.version}`);
}
