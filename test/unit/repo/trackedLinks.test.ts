import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

/**
 * The repository itself never carries a symbolic link that leaves it, nor one named
 * node_modules: a committed worktree link once made a clean clone's `npm ci` empty the
 * folder it pointed to.
 */
test('no tracked symbolic link leads outside the repository or stands for node_modules', (t) => {
  let listing: string;
  try {
    listing = execFileSync('git', ['ls-files', '-s', '-z'], { cwd: root, encoding: 'utf8' });
  } catch {
    t.skip('not a Git checkout');
    return;
  }
  const links = listing
    .split('\0')
    .filter(Boolean)
    .map((entry) => {
      const [meta, file] = entry.split('\t');
      return { mode: meta.split(' ')[0], object: meta.split(' ')[1], file };
    })
    .filter((entry) => entry.mode === '120000');
  for (const link of links) {
    assert.ok(!/(^|\/)node_modules$/.test(link.file), `${link.file} is a tracked node_modules link`);
    const target = execFileSync('git', ['cat-file', 'blob', link.object], { cwd: root, encoding: 'utf8' });
    const resolved = path.resolve(root, path.dirname(link.file), target);
    const inside = path.relative(root, resolved);
    assert.ok(!path.isAbsolute(target) && !inside.startsWith('..'), `${link.file} → ${target} leaves the repository`);
  }
});
