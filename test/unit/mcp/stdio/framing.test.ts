import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LineFramer } from '../../../../src/mcp/stdio/lineFramer';
import { scanJson } from '../../../../src/mcp/stdio/jsonScan';

describe('LineFramer', () => {
  test('splits lines across chunks and strips a trailing CR', () => {
    const f = new LineFramer(100);
    assert.deepEqual(f.push(Buffer.from('{"a":')), []);
    assert.deepEqual(f.push(Buffer.from('1}\r\n{"b":2}\n{"c"')), [
      { kind: 'line', text: '{"a":1}' },
      { kind: 'line', text: '{"b":2}' },
    ]);
    assert.deepEqual(f.push(Buffer.from(':3}\n')), [{ kind: 'line', text: '{"c":3}' }]);
  });

  test('a line past the limit keeps only its beginning and its size, then reading goes on', () => {
    const f = new LineFramer(10, 4);
    assert.deepEqual(f.push(Buffer.from('0123456789')), []);
    assert.deepEqual(f.push(Buffer.from('abcdef')), []);
    assert.deepEqual(f.push(Buffer.from('gh\nok\n')), [
      { kind: 'oversized', prefix: '0123', bytes: 18 },
      { kind: 'line', text: 'ok' },
    ]);
  });
});

describe('scanJson', () => {
  test('finds the top-level id, a string or an integer, never a nested one', () => {
    assert.deepEqual(scanJson('{"jsonrpc":"2.0","id":7,"method":"x"}', 64), { tooDeep: false, id: 7 });
    assert.deepEqual(scanJson('{"id":"a\\"b","method":"x"}', 64), { tooDeep: false, id: 'a"b' });
    assert.deepEqual(scanJson('{"params":{"id":5},"method":"x"}', 64), { tooDeep: false });
    assert.deepEqual(scanJson('{"id":{},"method":"x"}', 64), { tooDeep: false });
    assert.deepEqual(scanJson('{"id":1.5}', 64), { tooDeep: false });
    assert.deepEqual(scanJson('{"method":"x","params":{"s":"\\"id\\":3"}}', 64), { tooDeep: false });
  });

  test('reads the id of broken or cut-short text', () => {
    assert.deepEqual(scanJson('{"jsonrpc":"2.0","id":8,"method":', 64), { tooDeep: false, id: 8 });
    assert.deepEqual(scanJson('{"id":"abc', 64), { tooDeep: false });
    assert.deepEqual(scanJson('not json', 64), { tooDeep: false });
  });

  test('stops at the depth limit without recursing', () => {
    const deep = `{"id":3,"params":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    assert.deepEqual(scanJson(deep, 64), { tooDeep: true, id: 3 });
    assert.equal(scanJson(`{"a":${'['.repeat(63)}${']'.repeat(63)}}`, 64).tooDeep, false);
    assert.equal(scanJson(`{"a":${'['.repeat(64)}${']'.repeat(64)}}`, 64).tooDeep, true);
  });

  test('finds the id after a too-deep member, as the MCP SDK client writes it (params before id)', () => {
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    const sdk = `{"method":"tools/call","params":{"name":"x","arguments":${deep(70)}},"jsonrpc":"2.0","id":12}`;
    assert.deepEqual(scanJson(sdk, 64), { tooDeep: true, id: 12 });
    const strings = `{"params":${'['.repeat(100_000)}"]}{\\"id\\":5"${']'.repeat(100_000)},"id":"req-1"}`;
    assert.deepEqual(
      scanJson(strings, 64),
      { tooDeep: true, id: 'req-1' },
      'brackets and ids inside strings count for nothing',
    );
    assert.deepEqual(scanJson(`{"params":${deep(70)},"x":{"id":4}}`, 64), { tooDeep: true }, 'never a nested id');
  });
});
