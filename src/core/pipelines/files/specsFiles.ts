import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { LedgerError, validationError } from '../../errors';
import { confinedPath, listConfined, writeFileConfined } from '../../files/confinedPath';
import type { PipelineState } from '../engine/pipelineState';
import { stateSchemaId } from '../engine/pipelineState';

/**
 * The files of a pipeline under `<repo>/.specs/<name>/`: where they are, and reading and
 * writing them. The only place the pipeline engine touches the disk for its state.
 */
export interface PipelineDir {
  /** `.specs/<name>`, relative to the repository root, with `/`. */
  rel: string;
  abs: string;
  name: string;
  /** The workspace folder: nothing of the pipeline is read or written outside its real path. */
  root: string;
}

export const SPECS_DIR = '.specs';
const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const MAX_ARTIFACT_BYTES = 4 * 1024 * 1024;

/**
 * Resolves a pipeline workspace given as `.specs/<name>`, `./.specs/<name>`, an absolute path
 * or (for people at a terminal; `bare: false` refuses it) the bare `<name>`. Anything outside `<root>/.specs/` is refused
 * before any file is touched — also through a symbolic link (`.specs` or the folder linked out).
 */
export function resolvePipelineDir(root: string, ref: string, options: { bare?: boolean } = {}): PipelineDir {
  const raw = ref.trim().replace(/\\/g, '/').replace(/\/+$/, '');
  if (!raw)
    throw validationError('workspace is required: the pipeline folder, e.g. ".specs/20260401-fix-auth-timeout"', {
      field: 'workspace',
    });
  const specsRoot = path.join(path.resolve(root), SPECS_DIR);
  let abs: string;
  if (path.isAbsolute(raw)) abs = path.resolve(raw);
  else if (raw.split('/').includes('..'))
    abs = ''; // refused below whatever it resolves to
  else if (/^(\.\/)?\.specs\//.test(raw)) abs = path.resolve(root, raw);
  else if (!raw.includes('/') && options.bare !== false) abs = path.join(specsRoot, raw);
  else abs = path.resolve(root, raw);
  const name = abs && path.dirname(abs) === specsRoot ? path.basename(abs) : '';
  if (!name || !namePattern.test(name)) {
    throw validationError(
      `workspace "${ref}" is not a pipeline folder: it must be ${SPECS_DIR}/<name> inside ${root} (no "..", no other folder)`,
      { field: 'workspace', workspace: ref },
    );
  }
  confinedPath(root, abs);
  return { rel: `${SPECS_DIR}/${name}`, abs, name, root: path.resolve(root) };
}

export function stateFile(dir: PipelineDir): string {
  return path.join(dir.abs, 'state.json');
}

export function hasState(dir: PipelineDir): boolean {
  return fs.existsSync(confinedPath(dir.root, stateFile(dir)));
}

export function readState(dir: PipelineDir): PipelineState {
  let text: string;
  try {
    text = fs.readFileSync(confinedPath(dir.root, stateFile(dir)), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new LedgerError(
        'NotFound',
        `no pipeline in ${dir.rel} (${dir.rel}/state.json does not exist); start one with pipeline_init, or list them with \`agent-ledger pipeline list\``,
        { workspace: dir.rel },
      );
    }
    throw err;
  }
  let state: PipelineState;
  try {
    state = JSON.parse(text) as PipelineState;
  } catch (err) {
    throw new LedgerError(
      'ConfigError',
      `${dir.rel}/state.json is not valid JSON (${(err as Error).message}); fix it by hand or restore it from Git`,
      { workspace: dir.rel },
    );
  }
  if (state?.schema !== stateSchemaId || typeof state.current_phase !== 'string' || typeof state.phases !== 'object') {
    throw new LedgerError(
      'ConfigError',
      `${dir.rel}/state.json is not an Agent Ledger pipeline state (schema "${String(state?.schema)}", expected "${stateSchemaId}")`,
      { workspace: dir.rel },
    );
  }
  return state;
}

export function writeState(dir: PipelineDir, state: PipelineState): void {
  writeFileConfined(dir.root, stateFile(dir), `${JSON.stringify(state, null, 2)}\n`);
}

/** A file inside the pipeline folder, or null when absent. Names come from the flow (checked at load). */
export function readArtifact(dir: PipelineDir, name: string): string | null {
  // Artifacts end up in prompts: one linked outside is refused, never read.
  const file = confinedPath(dir.root, path.join(dir.abs, name));
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EISDIR')
      return null;
    throw err;
  }
  try {
    const size = fs.fstatSync(fd).size;
    if (size > MAX_ARTIFACT_BYTES)
      throw validationError(`${dir.rel}/${name} is too large (${size} bytes; at most ${MAX_ARTIFACT_BYTES})`, {
        artifact: `${dir.rel}/${name}`,
      });
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** Content hash of an artifact (null when absent): "was it rewritten?" without trusting clocks. */
export function fingerprint(dir: PipelineDir, name: string): string | null {
  const text = readArtifact(dir, name);
  return text === null ? null : createHash('sha1').update(text).digest('hex');
}

export function fingerprintText(text: string | null): string | null {
  return text === null ? null : createHash('sha1').update(text).digest('hex');
}

/** Existing pipeline folder names under `<root>/.specs`, sorted (none when `.specs` leads outside). */
export function listPipelineNames(root: string): string[] {
  try {
    return listConfined(root, SPECS_DIR).names.filter(
      (name) => namePattern.test(name) && isDirectory(path.join(root, SPECS_DIR, name)),
    );
  } catch {
    return [];
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
