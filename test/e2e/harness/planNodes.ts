import assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';

/**
 * A plan run's task nodes on a Plan graph page (the editor's panel frame or the web board's page):
 * a node's `data-plan-state`, and a wait until it reaches a state that fails with what it is
 * instead and what the runner said.
 */
export function planNodes(root: Page | Frame, said: () => string) {
  const state = (task: string) => root.locator(`[data-node="${task}"]`).getAttribute('data-plan-state');
  const until = async (task: string, wanted: string, ms = 30_000): Promise<void> => {
    await root
      .locator(`[data-node="${task}"][data-plan-state="${wanted}"]`)
      .waitFor({ timeout: ms })
      .catch(async () => assert.fail(`${task} is ${await state(task)}, not ${wanted}\n${said()}`));
  };
  return { state, until };
}
