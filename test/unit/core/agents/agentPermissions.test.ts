// What each level allows, resolved against the project's commands: the list every client gets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  commitCommands,
  neverCommands,
  permissionLevels,
  resolvePermissions,
} from '../../../../src/core/agents/agentPermissions';

const project = ['npm test', 'npm run build'];

test('each level allows what the one before it does, and more', () => {
  const of = (level: (typeof permissionLevels)[number], commands: string[] = []) =>
    resolvePermissions({ level, commands, never: [] }, project).commands;
  assert.deepEqual(of('read'), []);
  assert.deepEqual(of('edit'), []);
  assert.deepEqual(of('test', ['npm run e2e']), [...project, 'npm run e2e']);
  assert.deepEqual(of('commit'), [...project, ...commitCommands]);
  assert.ok(commitCommands.includes('git commit') && commitCommands.includes('git add'));
});

test('what it may never run: the built-in list at every level, plus its own', () => {
  for (const level of permissionLevels) {
    const { never } = resolvePermissions({ level, commands: [], never: ['npm publish'] }, project);
    assert.deepEqual(never, [...neverCommands, 'npm publish']);
  }
  for (const command of ['git push', 'git merge', 'git rebase', 'git checkout', 'git worktree'])
    assert.ok(neverCommands.includes(command), command);
});
