import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerError } from '../../../../src/core/errors';
import {
  readArtifact,
  readState,
  resolvePipelineDir,
  writeState,
} from '../../../../src/core/pipelines/files/specsFiles';
import { writeFileDurable } from '../../../../src/core/files/durableWrite';
import { PipelineResources, findDefaultsDir } from '../../../../src/core/pipelines/files/flowFiles';
import { tempDir } from '../../../helpers/tmp';

test('a pipeline workspace resolves only to a folder directly under <root>/.specs', () => {
  const root = tempDir();
  const ok = { rel: '.specs/20260401-x', abs: path.join(root, '.specs', '20260401-x'), name: '20260401-x', root };
  assert.deepEqual(resolvePipelineDir(root, '.specs/20260401-x'), ok);
  assert.deepEqual(resolvePipelineDir(root, './.specs/20260401-x/'), ok);
  assert.deepEqual(resolvePipelineDir(root, path.join(root, '.specs', '20260401-x')), ok);
  assert.deepEqual(resolvePipelineDir(root, '20260401-x'), ok, 'a bare name, for people at a terminal');
  for (const bad of [
    '',
    '../x',
    '.specs/../x',
    '.specs/../../etc',
    '/etc/passwd',
    '.specs/a/b',
    'src/x',
    '.specs',
    '.specs/.hidden',
    path.join(root, 'other'),
  ]) {
    assert.throws(
      () => resolvePipelineDir(root, bad),
      (e: unknown) => LedgerError.is(e, 'ValidationError'),
      bad,
    );
  }
  assert.throws(() => resolvePipelineDir(root, '20260401-x', { bare: false }), /not a pipeline folder/);
});

test('a .specs folder, a pipeline folder or an artifact linked outside the workspace is refused, never read', () => {
  const root = tempDir();
  const out = tempDir();
  fs.writeFileSync(path.join(out, 'secret.md'), 'SECRET');
  fs.symlinkSync(out, path.join(root, '.specs'));
  const linked = (fn: () => unknown, link: string) =>
    assert.throws(
      fn,
      (e: unknown) =>
        LedgerError.is(e, 'ConfigError') && e.data?.reason === 'pathOutsideWorkspace' && e.data?.link === link,
    );
  linked(() => resolvePipelineDir(root, '.specs/20260401-x'), '.specs');
  fs.unlinkSync(path.join(root, '.specs'));
  fs.mkdirSync(path.join(root, '.specs', '20260401-y'), { recursive: true });
  fs.symlinkSync(out, path.join(root, '.specs', '20260401-x'));
  linked(() => resolvePipelineDir(root, '20260401-x'), '.specs/20260401-x');
  const dir = resolvePipelineDir(root, '.specs/20260401-y');
  fs.symlinkSync(path.join(out, 'secret.md'), path.join(dir.abs, 'request.md'));
  linked(() => readArtifact(dir, 'request.md'), '.specs/20260401-y/request.md');
  fs.symlinkSync(path.join(out, 'state.json'), path.join(dir.abs, 'state.json'));
  linked(() => readState(dir), '.specs/20260401-y/state.json');
  linked(() => writeState(dir, { schema: 'x' } as never), '.specs/20260401-y/state.json');
  assert.deepEqual(fs.readdirSync(out), ['secret.md']);
});

test('state.json: a clear error when absent or foreign; atomic writes leave no temp file', () => {
  const root = tempDir();
  const dir = resolvePipelineDir(root, '.specs/20260401-x');
  assert.throws(
    () => readState(dir),
    (e: unknown) => LedgerError.is(e, 'NotFound'),
  );
  writeFileDurable(path.join(dir.abs, 'state.json'), '{"schema":"other"}');
  assert.throws(
    () => readState(dir),
    (e: unknown) => LedgerError.is(e, 'ConfigError') && /not an Agent Ledger pipeline state/.test(e.message),
  );
  writeFileDurable(path.join(dir.abs, 'state.json'), '{oops');
  assert.throws(() => readState(dir), /not valid JSON/);
  assert.deepEqual(fs.readdirSync(dir.abs), ['state.json']);
});

test('a flow or agent instructions override linked outside the workspace is refused, never read into a prompt', () => {
  const root = tempDir();
  const out = tempDir();
  fs.writeFileSync(path.join(out, 'secret.md'), 'SECRET');
  fs.mkdirSync(path.join(root, '.agent-ledger', 'pipeline'), { recursive: true });
  fs.symlinkSync(out, path.join(root, '.agent-ledger', 'pipeline', 'agents'));
  fs.symlinkSync(path.join(out, 'secret.md'), path.join(root, '.agent-ledger', 'pipeline', 'flow.yaml'));
  const resources = new PipelineResources(root, findDefaultsDir(path.join(__dirname, '..', '..', '..', '..', 'src')));
  assert.throws(
    () => resources.flow(),
    (e: unknown) => LedgerError.is(e, 'ConfigError') && e.data?.link === '.agent-ledger/pipeline/flow.yaml',
  );
  fs.copyFileSync(path.join(out, 'secret.md'), path.join(out, 'implementer.md'));
  assert.throws(
    () => resources.agentInstructions('implementer'),
    (e: unknown) => LedgerError.is(e, 'ConfigError') && e.data?.link === '.agent-ledger/pipeline/agents',
  );
});
