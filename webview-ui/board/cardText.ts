import type { BoardCardItem } from '../../src/shared/protocol';

/**
 * A checkpoint or gate as the Pipelines tree names it (its short form, src/views/pipelineText.ts
 * checkpointTitle): `checkpoint-a` → "Checkpoint A", `task-2` → "Task 2 (human)",
 * `design-retry-limit` → "design: revision limit". The webview may not import that module (it
 * runs in the browser), so the rule is said again here; boardCards.test.ts holds both to it.
 */
export function waitingName(name: string): string {
  const limit = /^(.+)-retry-limit$/.exec(name);
  if (limit) return `${limit[1]}: revision limit`;
  const checkpoint = /^checkpoint-(\w+)$/.exec(name);
  if (checkpoint) return `Checkpoint ${checkpoint[1].toUpperCase()}`;
  const task = /^task-(.+)$/.exec(name);
  if (task) return `Task ${task[1]} (human)`;
  return name;
}

/** The card's key: its task id, else the checkpoint or gate it waits at, named. */
export function cardLabel(card: BoardCardItem): string {
  if (card.kind === 'task') return card.id;
  return card.gate ? waitingName(card.gate) : card.kind === 'checkpoint' ? 'Checkpoint' : 'Human gate';
}

/** Why the card needs a person, with the checkpoint or gate named as in the tree. */
export function cardReason(card: BoardCardItem): string | null {
  if (!card.reason || card.kind === 'task') return card.reason;
  // The key already names it (cardLabel): the line says what it waits for.
  return card.gate ? 'waits for your decision' : card.reason;
}
