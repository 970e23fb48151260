// The Board, the plan graph and the Blackboard view in a real VS Code (code-server) shown by
// headless Chromium, VSIX installed (agentLedger/boardJourney.ts). Figures (first paint and live
// update at 2,000 tasks) are printed at the end.
// Run alone: npm run e2e:setup && node --import tsx --test --test-reporter=spec test/e2e/board.e2e.ts
import path from 'node:path';
import { after, before } from 'node:test';
import { assertHostInstalled } from './harness/paths';
import { packageAgentLedger } from './agentLedger/extensionPackage';
import type { PackagedExtension } from './agentLedger/extensionPackage';
import { boardFigures, describeBoardJourney } from './agentLedger/boardJourney';

let pkg: PackagedExtension | undefined;

before(async () => {
  assertHostInstalled();
  pkg = await packageAgentLedger();
  console.log(`packaged ${path.relative(process.cwd(), pkg.vsixPath)} (${(pkg.bytes / 1024).toFixed(0)} KiB)`);
});

after(() => {
  if (boardFigures.length) console.log(`board figures:\n${boardFigures.map((f) => `  ${f}`).join('\n')}`);
});

describeBoardJourney(() => pkg!);
