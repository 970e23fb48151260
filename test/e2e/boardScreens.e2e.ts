// The Board at 1280×800 with the side bar open, light and dark (agentLedger/boardScreensJourney.ts).
// Run alone: npm run e2e:setup && npm run build && node --import tsx --test --test-reporter=spec test/e2e/boardScreens.e2e.ts
import path from 'node:path';
import { before } from 'node:test';
import { assertHostInstalled } from './harness/paths';
import { packageAgentLedger } from './agentLedger/extensionPackage';
import type { PackagedExtension } from './agentLedger/extensionPackage';
import { describeBoardScreens } from './agentLedger/boardScreensJourney';

let pkg: PackagedExtension | undefined;

before(async () => {
  assertHostInstalled();
  pkg = await packageAgentLedger();
  console.log(`packaged ${path.relative(process.cwd(), pkg.vsixPath)} (${(pkg.bytes / 1024).toFixed(0)} KiB)`);
});

describeBoardScreens(() => pkg!);
