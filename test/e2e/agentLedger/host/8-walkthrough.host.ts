// The front door in the real editor: the Get Started walkthrough is contributed, every command
// and view it (and each welcome view) points at exists, and the welcome texts are a line or two
// with buttons, as VS Code's own views do.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../../../src/vscode/commands/commandIds';
import { extension } from './hostHelpers';

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string };
  completionEvents: string[];
}

/** `[label](command:id)` links of a description or welcome text. */
const commandLinks = (text: string): string[] => [...text.matchAll(/\]\(command:([\w.-]+)/g)].map((m) => m[1]);

describe('Get Started walkthrough and welcome views', () => {
  const contributes = (): any => extension().packageJSON.contributes;

  it('contributes the walkthrough: connect an agent, watch its first task, open what it changed, approve a checkpoint', () => {
    const [walkthrough] = contributes().walkthroughs as { id: string; title: string; steps: Step[] }[];
    assert.equal(walkthrough.id, 'agentLedger.getStarted');
    assert.deepEqual(
      walkthrough.steps.map((s) => s.title),
      ['Connect an agent', 'Watch its first task', 'Open what it changed', 'Approve a checkpoint'],
    );
    for (const step of walkthrough.steps) {
      assert.ok(step.media.markdown, `${step.id} has media`);
      assert.ok(
        existsSync(path.join(extension().extensionPath, step.media.markdown)),
        `${step.media.markdown} is packaged`,
      );
      assert.ok(step.completionEvents.length > 0, `${step.id} completes on something the user does`);
      assert.ok(commandLinks(step.description).length > 0, `${step.id} has a button`);
    }
  });

  it('points only at commands and views that exist', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const views = new Set(
      Object.values(contributes().views as Record<string, { id: string }[]>)
        .flat()
        .map((v) => v.id),
    );
    const steps = contributes().walkthroughs[0].steps as Step[];
    const welcome = contributes().viewsWelcome as { view: string; contents: string }[];
    const commands = [
      ...steps.flatMap((s) => [
        ...commandLinks(s.description),
        ...s.completionEvents.filter((e) => e.startsWith('onCommand:')).map((e) => e.slice('onCommand:'.length)),
      ]),
      ...welcome.flatMap((w) => commandLinks(w.contents)),
    ];
    for (const id of new Set(commands)) assert.ok(registered.has(id), `${id} is not a command`);
    for (const e of steps.flatMap((s) => s.completionEvents).filter((e) => e.startsWith('onView:')))
      assert.ok(views.has(e.slice('onView:'.length)), `${e}: no such view`);
    for (const w of welcome) assert.ok(views.has(w.view), `viewsWelcome for ${w.view}: no such view`);
  });

  it('keeps every welcome view to a line or two, with buttons', () => {
    for (const w of contributes().viewsWelcome as { view: string; contents: string; when: string }[]) {
      const lines = w.contents.split('\n');
      const prose = lines.filter((l) => !/^\[[^\]]+\]\(command:[^)]+\)$/.test(l));
      assert.ok(
        prose.length <= 2 && prose.every((l) => l.length <= 120),
        `${w.view} (${w.when}): ${JSON.stringify(prose)}`,
      );
      assert.ok(lines.length > prose.length, `${w.view} (${w.when}) has no button`);
    }
  });

  it('opens the walkthrough with Agent Ledger: Get Started', async () => {
    await vscode.commands.executeCommand(Commands.GetStarted);
  });
});
