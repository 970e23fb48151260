import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseCatFileBatch,
  parseLog,
  parseLsTree,
  parseNameStatus,
  parseRawDiff,
  rawToFileChanges,
  splitNul,
} from '../../../src/git/parsers';

test('parseNameStatus reads diff-tree -z output, renames, type changes and odd names included', () => {
  // Literal output of `git diff-tree -r -z --find-renames --name-status` (C from -C).
  const output =
    'A\0copy\0D\0gone\0A\0new\0M\0qu"ote\'s\0T\0tchange\0R100\0a b.txt\0ünï/c d.txt\0C075\0src.ts\0src copy.ts\0';
  assert.deepEqual(parseNameStatus(output), {
    added: ['copy', 'new', 'src copy.ts'],
    modified: ['qu"ote\'s', 'tchange'],
    deleted: ['gone'],
    renamed: [{ from: 'a b.txt', to: 'ünï/c d.txt' }],
  });
});

test('parseNameStatus sorts every list and returns empty lists for no output', () => {
  assert.deepEqual(parseNameStatus(''), { added: [], modified: [], deleted: [], renamed: [] });
  const sorted = parseNameStatus('M\0z\0M\0a/b\0M\0A\0R050\0y\0x\0R090\0b\0c\0');
  assert.deepEqual(sorted.modified, ['A', 'a/b', 'z']);
  assert.deepEqual(sorted.renamed, [
    { from: 'b', to: 'c' },
    { from: 'y', to: 'x' },
  ]);
});

test('parseRawDiff reads diff-tree -z --raw output: modes, object ids, renames and gitlinks', () => {
  // Literal output of `git diff-tree -r -z --raw --find-renames` (the gitlink line from a submodule bump).
  const a = '0cfbf08886fca9a91cb753ec8734c84fcbe52c9f';
  const b = '0750edc07d6415dcc07ae0351e9397b0222b7ba7';
  const c = '7313de99f2606f4f167d2376839b35af8daef62a';
  const output =
    `:100644 100644 ${a} ${a} R100\0other/g\0other/h\0` +
    `:100644 100644 ${b} ${c} M\0pkg/a b.txt\0` +
    `:160000 160000 ${a} ${c} M\0sub\0` +
    `:000000 100644 ${'0'.repeat(40)} ${b} A\0new\0` +
    `:100644 000000 ${b} ${'0'.repeat(40)} D\0gone\0`;
  const raw = parseRawDiff(output);
  assert.deepEqual(raw[0], {
    status: 'R',
    oldMode: '100644',
    newMode: '100644',
    oldSha: a,
    newSha: a,
    from: 'other/g',
    path: 'other/h',
  });
  assert.deepEqual(raw[2], { status: 'M', oldMode: '160000', newMode: '160000', oldSha: a, newSha: c, path: 'sub' });
  assert.deepEqual(rawToFileChanges(raw), {
    added: ['new'],
    modified: ['pkg/a b.txt', 'sub'],
    deleted: ['gone'],
    renamed: [{ from: 'other/g', to: 'other/h' }],
  });
  assert.deepEqual(parseRawDiff(''), []);
});

test('parseLog reads NUL-separated fields of several commits, quotes and unicode kept', () => {
  // Literal output of `git log -z --format=%H%x00%s%x00%an%x00%aI --reverse`.
  const output =
    'c4219aac2bb36f7281192808badca0615dea357a\0first\0A\x002026-11-21T17:16:05+00:00\0' +
    '66f6be2021fa6cf52d82d7a569d3d1b8d8520663\0subject with "quotes" and ünï\0Ann "Q" Lee\x002026-11-21T17:16:08+00:00\0';
  assert.deepEqual(parseLog(output), [
    {
      sha: 'c4219aac2bb36f7281192808badca0615dea357a',
      subject: 'first',
      author: 'A',
      date: '2026-11-21T17:16:05+00:00',
    },
    {
      sha: '66f6be2021fa6cf52d82d7a569d3d1b8d8520663',
      subject: 'subject with "quotes" and ünï',
      author: 'Ann "Q" Lee',
      date: '2026-11-21T17:16:08+00:00',
    },
  ]);
  assert.deepEqual(parseLog(''), []);
});

test('parseLsTree reads modes, types and paths with tabs and spaces', () => {
  const output =
    '100644 blob 587be6b4c3f93f93c489c0111bba5596147a26cb\td/y\0' +
    '100755 blob d00491fd7e5bb6fa28c517a0bb32b8b506539d4d\trun me.sh\0' +
    '120000 blob 1234567890123456789012345678901234567890\tlink\0' +
    '160000 commit abcdefabcdefabcdefabcdefabcdefabcdefabcd\tsub\tmodule\0';
  assert.deepEqual(parseLsTree(output), [
    { mode: '100644', type: 'blob', sha: '587be6b4c3f93f93c489c0111bba5596147a26cb', path: 'd/y' },
    { mode: '100755', type: 'blob', sha: 'd00491fd7e5bb6fa28c517a0bb32b8b506539d4d', path: 'run me.sh' },
    { mode: '120000', type: 'blob', sha: '1234567890123456789012345678901234567890', path: 'link' },
    { mode: '160000', type: 'commit', sha: 'abcdefabcdefabcdefabcdefabcdefabcdefabcd', path: 'sub\tmodule' },
  ]);
});

test('parseCatFileBatch slices binary contents by size, newlines and NULs inside', () => {
  const binary = Buffer.from([0, 10, 255, 10, 0]);
  const output = Buffer.concat([
    Buffer.from('aaaa blob 5\n'),
    binary,
    Buffer.from('\nbbbb missing\n'),
    Buffer.from('cccc blob 0\n\n'),
  ]);
  const objects = parseCatFileBatch(output);
  assert.equal(objects.length, 3);
  assert.deepEqual(objects[0], { name: 'aaaa', type: 'blob', content: binary });
  assert.deepEqual(objects[1], { name: 'bbbb', type: null, content: null });
  assert.equal(objects[2].content?.length, 0);
});

test('splitNul drops only the terminator', () => {
  assert.deepEqual(splitNul('a\0\0b\0'), ['a', '', 'b']);
  assert.deepEqual(splitNul(''), []);
});
