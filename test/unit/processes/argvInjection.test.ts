import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { injectionAttempts } from '../../helpers/stubClients';
import { childSpec, supervisor } from './supervisorFixture';

test('arguments full of shell metacharacters reach the program verbatim and nothing else runs', async () => {
  const spec = childSpec('args');
  const marker = path.join(spec.cwd, 'PWNED');
  const hostile = [
    ...injectionAttempts(marker),
    `$(touch ${marker}-a)`,
    `; rm -rf ${spec.cwd} ;`,
    `\`touch ${marker}-b\``,
    `line one\nline two; touch ${marker}-c`,
    '--flag-looking=value',
    '-',
    '',
    '*',
    '~',
    '${HOME}',
    'quote " and \' and \\',
  ];
  spec.args = [...spec.args, ...hostile];
  const exit = await (await supervisor().start(spec)).exited;
  assert.equal(exit.exitCode, 0);
  assert.deepEqual(JSON.parse(exit.tail[0]), hostile);
  assert.deepEqual(
    fs.readdirSync(spec.cwd).filter((f) => f.startsWith('PWNED')),
    [],
    'no injected command ran',
  );
  assert.ok(fs.existsSync(spec.cwd), 'nothing was removed');
});
