/**
 * The workspace truth of a folder that is not a Git repository: snapshots are MD5 manifests
 * stored as JSON files. It can say what changed, not undo it: rewind needs Git.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ChangesSince, Snapshot, WorkspaceTruth } from '../core/ports/workspaceTruth';
import { confinedPath, writeFileConfined } from '../core/files/confinedPath';
import { diffManifests, md5File, scanManifest } from './checksumManifest';
import type { HashFile, Manifest } from './checksumManifest';
import { GitError } from './errors';

export interface ChecksumOptions {
  /** How a file is hashed; tests pass a counting wrapper of the default {@link md5File}. */
  hashFile?: HashFile;
}

const manifestId = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export class ChecksumWorkspaceTruth implements WorkspaceTruth {
  readonly kind = 'checksum' as const;
  readonly root: string;
  readonly workspacePath = '';
  private readonly hashFile: HashFile;
  /** The newest manifest this instance saw: the next scan reuses its hashes. */
  private latest: Manifest | undefined;

  /**
   * @param root the workspace folder.
   * @param dataDir where manifests are stored, e.g. `<workspace>/.agent-ledger/snapshots`.
   */
  constructor(
    root: string,
    private readonly dataDir: string,
    options: ChecksumOptions = {},
  ) {
    this.root = path.resolve(root);
    this.hashFile = options.hashFile ?? md5File;
  }

  async snapshot(label: string): Promise<Snapshot> {
    return toSnapshot(await this.scan(label, this.latest));
  }

  /** Manifests are files nobody collects: there is nothing to protect. */
  async keep(_snapshot: Snapshot, _name: string): Promise<void> {}

  async changesSince(from: Snapshot, to?: Snapshot): Promise<ChangesSince> {
    const before = await this.load(from);
    const after = to ? await this.load(to) : await this.scan('now', newer(this.latest, before));
    return { files: diffManifests(before, after), commits: [], to: toSnapshot(after) };
  }

  async fileAt(_snapshot: Snapshot, _path: string): Promise<Buffer | null> {
    throw unsupported();
  }

  async restore(_snapshot: Snapshot, _paths: readonly string[]): Promise<void> {
    throw unsupported();
  }

  private async scan(label: string, base: Manifest | undefined): Promise<Manifest> {
    const id = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    const manifest = await scanManifest(this.root, { id, label }, base, this.hashFile);
    // The manifests folder is `.agent-ledger/snapshots/`: never written through a link leading out.
    writeFileConfined(this.root, this.manifestPath(id), JSON.stringify(manifest));
    this.latest = newer(this.latest, manifest);
    return manifest;
  }

  private async load(snapshot: Snapshot): Promise<Manifest> {
    if (snapshot.type !== 'checksum' || !manifestId.test(snapshot.id)) {
      throw new GitError('snapshotMissing', `Snapshot ${snapshot.id} is not a checksum manifest of this workspace.`);
    }
    if (this.latest?.id === snapshot.id) return this.latest;
    try {
      return JSON.parse(await readFile(confinedPath(this.root, this.manifestPath(snapshot.id)), 'utf8')) as Manifest;
    } catch (ex) {
      if ((ex as NodeJS.ErrnoException).code !== 'ENOENT' && !(ex instanceof SyntaxError)) throw ex;
      throw new GitError(
        'snapshotMissing',
        `The manifest of snapshot ${snapshot.id} is missing or damaged in ${this.dataDir}.`,
      );
    }
  }

  private manifestPath(id: string): string {
    return path.join(this.dataDir, `${id}.json`);
  }
}

function toSnapshot(manifest: Manifest): Snapshot {
  return { type: 'checksum', id: manifest.id, head: null, takenAt: manifest.takenAt };
}

function newer(a: Manifest | undefined, b: Manifest): Manifest {
  return a && a.scannedAtMs > b.scannedAtMs ? a : b;
}

function unsupported(): GitError {
  return new GitError(
    'unsupported',
    'Rewind needs a Git repository: this workspace is tracked by checksums, which record what changed but not the content to put back.',
  );
}
