import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cardLabel, cardReason, waitingName } from '../../../webview-ui/board/cardText';
import { checkpointTitle } from '../../../src/views/pipelineText';
import { boardCards } from '../../../src/core/board/boardModel';
import type { BoardWaitingPipeline } from '../../../src/core/board/boardModel';

const noLabel = (): undefined => undefined;

test('the board names a checkpoint or gate as the Pipelines tree does (its short form)', () => {
  for (const name of ['checkpoint-a', 'checkpoint-b', 'task-2', 'design-retry-limit', 'custom-gate'])
    assert.equal(waitingName(name), checkpointTitle(name, noLabel, true), name);
});

test('a checkpoint card reads "Checkpoint A", never the raw id, in its key and its reason', () => {
  const waiting: BoardWaitingPipeline[] = [
    {
      id: 3,
      workspace: '.specs/refund',
      title: 'Refund flow',
      workflow: null,
      kind: 'checkpoint',
      name: 'checkpoint-a',
      updatedAt: '2026-11-23T10:00:00.000Z',
    },
    {
      id: 4,
      workspace: '.specs/export',
      title: 'Export',
      workflow: null,
      kind: 'human_gate',
      name: 'task-2',
      updatedAt: '2026-11-23T10:00:01.000Z',
    },
  ];
  const [gate, checkpoint] = boardCards([], new Map(), waiting, new Map(), new Map(), new Set());
  assert.equal(cardLabel(checkpoint), 'Checkpoint A');
  assert.equal(cardReason(checkpoint), 'waits for your decision');
  assert.equal(cardLabel(gate), 'Task 2 (human)');
  assert.equal(cardReason(gate), 'waits for your decision');
  for (const text of [cardLabel(checkpoint), cardReason(checkpoint)]) assert.doesNotMatch(text ?? '', /checkpoint-a/);
});
