import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LedgerError } from '../../../../src/core/errors';
import {
  confinedPath,
  isConfined,
  listConfined,
  realPathOf,
  writeFileConfined,
  writeNewFileConfined,
} from '../../../../src/core/files/confinedPath';
import { tempDir } from '../../../helpers/tmp';

/** A workspace `ws` beside a folder `out` that nothing may read or write. */
function layout(): { ws: string; out: string } {
  const base = tempDir('agent-ledger-confine-');
  const ws = path.join(base, 'ws');
  const out = path.join(base, 'out');
  fs.mkdirSync(ws);
  fs.mkdirSync(out);
  return { ws, out };
}

function outsideError(fn: () => unknown): LedgerError {
  try {
    fn();
  } catch (err) {
    assert.ok(LedgerError.is(err), `expected a LedgerError, got ${String(err)}`);
    assert.equal(err.data?.reason, 'pathOutsideWorkspace');
    return err;
  }
  assert.fail('expected the path to be refused');
}

test('paths inside the workspace resolve to their real path, existing or not', () => {
  const { ws } = layout();
  fs.mkdirSync(path.join(ws, 'a'));
  fs.symlinkSync('a', path.join(ws, 'inner-link'));
  assert.equal(confinedPath(ws, 'a/b/c.md'), path.join(ws, 'a', 'b', 'c.md'));
  assert.equal(confinedPath(ws, 'inner-link/x'), path.join(ws, 'a', 'x'), 'a link that stays inside is fine');
  assert.equal(confinedPath(ws, path.join(ws, 'new')), path.join(ws, 'new'));
});

test('a folder link leading out is refused, naming the link and where it points', () => {
  const { ws, out } = layout();
  fs.mkdirSync(path.join(ws, '.agent-ledger', 'memory'), { recursive: true });
  fs.symlinkSync('../../../out', path.join(ws, '.agent-ledger', 'memory', 'evil'));
  const err = outsideError(() => confinedPath(ws, '.agent-ledger/memory/evil/planted.md'));
  assert.equal(err.code, 'ConfigError');
  assert.equal(err.data?.link, '.agent-ledger/memory/evil');
  assert.equal(err.data?.target, out);
  assert.equal(err.data?.path, '.agent-ledger/memory/evil/planted.md');
  assert.match(err.message, /\.agent-ledger\/memory\/evil is a symbolic link to/);
});

test('a dangling link is followed to where it would write, and refused', () => {
  const { ws, out } = layout();
  fs.symlinkSync(path.join(out, 'not-yet', 'file.md'), path.join(ws, 'dangling.md'));
  assert.equal(realPathOf(path.join(ws, 'dangling.md')), path.join(out, 'not-yet', 'file.md'));
  outsideError(() => confinedPath(ws, 'dangling.md'));
  outsideError(() => writeFileConfined(ws, 'dangling.md', 'x'));
  assert.equal(fs.existsSync(path.join(out, 'not-yet')), false);
});

test('a chain of links and `..` are resolved like the kernel does', () => {
  const { ws, out } = layout();
  fs.mkdirSync(path.join(ws, 'd'));
  fs.symlinkSync('d', path.join(ws, 'hop1'));
  fs.symlinkSync('../../out', path.join(ws, 'd', 'hop2'));
  outsideError(() => confinedPath(ws, 'hop1/hop2/x'));
  outsideError(() => confinedPath(ws, '../out/x'));
  assert.equal(isConfined(ws, 'hop1'), true);
  assert.equal(isConfined(ws, 'hop1/hop2'), false);
  assert.equal(fs.readdirSync(out).length, 0);
});

test('writes refuse a link anywhere on the way and never create anything outside', () => {
  const { ws, out } = layout();
  fs.symlinkSync(out, path.join(ws, '.specs'));
  outsideError(() => writeFileConfined(ws, '.specs/20260101-x/state.json', '{}'));
  outsideError(() => writeNewFileConfined(ws, '.specs/new.md', 'x'));
  assert.deepEqual(fs.readdirSync(out), []);
  writeFileConfined(ws, 'real/folder/file.txt', 'ok');
  assert.equal(fs.readFileSync(path.join(ws, 'real', 'folder', 'file.txt'), 'utf8'), 'ok');
});

test('a link at the final name is replaced by a durable write, never written through', () => {
  const { ws, out } = layout();
  fs.writeFileSync(path.join(ws, 'target.txt'), 'inside');
  fs.symlinkSync('target.txt', path.join(ws, 'inside-link.txt'));
  writeFileConfined(ws, 'inside-link.txt', 'new');
  assert.equal(fs.lstatSync(path.join(ws, 'inside-link.txt')).isSymbolicLink(), false);
  assert.equal(fs.readFileSync(path.join(ws, 'target.txt'), 'utf8'), 'inside');
  assert.deepEqual(fs.readdirSync(out), []);
});

test('listings keep what stays inside and refuse entries that lead out', () => {
  const { ws, out } = layout();
  fs.writeFileSync(path.join(out, 'secret.md'), 'secret');
  fs.mkdirSync(path.join(ws, 'mem'));
  fs.writeFileSync(path.join(ws, 'mem', 'a.md'), 'a');
  fs.symlinkSync(path.join(out, 'secret.md'), path.join(ws, 'mem', 'b.md'));
  fs.symlinkSync('a.md', path.join(ws, 'mem', 'c.md'));
  const listing = listConfined(ws, 'mem');
  assert.deepEqual(listing.names, ['a.md', 'c.md']);
  assert.deepEqual(
    listing.refused.map((r) => [r.name, r.error.data?.link]),
    [['b.md', 'mem/b.md']],
  );
  assert.deepEqual(listConfined(ws, 'missing'), { names: [], refused: [] });
});

test('a workspace reached through a link of its own is fine: the root is trusted, what is under it is not', () => {
  const { ws, out } = layout();
  const alias = path.join(path.dirname(ws), 'alias');
  fs.symlinkSync(ws, alias);
  assert.equal(confinedPath(alias, 'x/y'), path.join(ws, 'x', 'y'));
  fs.symlinkSync(out, path.join(ws, 'leak'));
  outsideError(() => confinedPath(alias, 'leak/z'));
});
