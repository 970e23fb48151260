import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from '../helpers/cli';

/**
 * `agent-ledger --workspace <dir> pipeline next <pipeline>`: the workspace folder and the
 * pipeline's folder never share the name "workspace" on the command line (issue 9).
 */
test('every pipeline command names its folder argument <pipeline>, never <workspace>', () => {
  for (const command of ['next', 'report', 'status', 'approve', 'reject', 'decide']) {
    const r = cli(['pipeline', command, '--help']);
    assert.equal(r.code, 0, r.stderr);
    const usage = r.stdout.split('\n').find((line) => line.startsWith('Usage:')) ?? '';
    assert.match(usage, /<pipeline>/, `pipeline ${command}: ${usage}`);
    // `<workspace>` is left to the global --workspace folder (the options below the arguments).
    const args = r.stdout.slice(r.stdout.indexOf('Arguments:'), r.stdout.indexOf('Options:'));
    assert.match(args, /pipeline\s+the pipeline's folder/, `pipeline ${command} --help: ${r.stdout}`);
    assert.doesNotMatch(`${usage}\n${args}`, /workspace/i, `pipeline ${command} --help: ${r.stdout}`);
  }
});
