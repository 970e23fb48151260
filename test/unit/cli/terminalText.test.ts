import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sgr, toTerminal, visible, visibleBlock, visibleWidth } from '../../../src/cli/terminalText';

describe('terminal text', () => {
  test('visible shows every control character on one line', () => {
    assert.equal(visible('E\x1b]0;HACKED\x07\x1b[2J'), 'E␛]0;HACKED␇␛[2J');
    assert.equal(visible('a\nb\r\tc\x7f'), 'a⏎b␍␉c␡');
    assert.equal(visible('\x9b31m \u202egnp.exe \u2028'), '\\u009b31m \\u202egnp.exe \\u2028');
    assert.equal(visible('plain — ünïcode ✓'), 'plain — ünïcode ✓');
    assert.equal(visible(null), '');
  });

  test('visibleBlock keeps lines and tabs, normalises CRLF, shows a lone CR', () => {
    assert.equal(visibleBlock('a\r\nb\tc\rd\x1b[2J'), 'a\nb\tc␍d␛[2J');
  });

  test('styling markers become SGR only at the terminal, and data cannot forge them', () => {
    const line = `${sgr('1', '22', 'bold')} ${visible('\uE0001\uE001x')}`;
    assert.equal(toTerminal(line, true), '\x1b[1mbold\x1b[22m \\ue0001\\ue001x');
    assert.equal(toTerminal(line, false), 'bold \\ue0001\\ue001x');
    assert.equal(visibleWidth(sgr('2', '22', 'abc')), 3);
  });

  test('toTerminal shows what a formatter forgot', () => {
    assert.equal(toTerminal('forgot \x1b]0;x\x07\n', true), 'forgot ␛]0;x␇\n');
  });
});
