import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFrontMatterFields } from '../../../../src/core/files/frontMatter';

test('setting a front matter field keeps the other keys, their comments and the body as written', () => {
  const text =
    '---\n# why this entry exists\ntitle: Test framework   # the short name\nstatus: active\nowner: qa\n---\n\nBody *kept*\n\n  exactly.\n';
  assert.equal(
    setFrontMatterFields(text, { status: 'archived' }),
    '---\n# why this entry exists\ntitle: Test framework # the short name\nstatus: archived\nowner: qa\n---\n\nBody *kept*\n\n  exactly.\n',
  );
  // No status yet: it is added; no front matter at all: one is written above the body.
  assert.equal(
    setFrontMatterFields('---\ntitle: T\n---\nB\n', { status: 'draft' }),
    '---\ntitle: T\nstatus: draft\n---\nB\n',
  );
  assert.equal(
    setFrontMatterFields('# Heading\nText\n', { status: 'archived' }),
    '---\nstatus: archived\n---\n\n# Heading\nText\n',
  );
  assert.throws(() => setFrontMatterFields('---\n- a list\n---\n', { status: 'x' }), /must be a YAML mapping/);
  assert.throws(() => setFrontMatterFields('---\ntitle: x\n', { status: 'x' }), /no closing/);
});
