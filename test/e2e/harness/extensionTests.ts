// Runs extension tests inside a real VS Code extension host: a fresh
// code-server, Chromium opening the workbench with the `payload` URL parameter
// (extensionDevelopmentPath + extensionTestsPath), and the exit code received
// through window.codeAutomationExit. See shared/E2E.md.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BrowserSession, Workbench } from './browser';
import { CodeServer } from './codeServer';
import { resultFileEnv } from './hostRunnerEnv';
import { resultsDir, slug } from './paths';

export interface ExtensionTestsOptions {
  /** The extension folder under test (holds its package.json and built bundle). */
  readonly extensionDevelopmentPath: string;
  /** A JS module exporting `run()`: the bundle from buildHostTests(). */
  readonly extensionTestsPath: string;
  /** The folder the workbench opens. */
  readonly workspace: string;
  /** Whole-run limit; on expiry the run is stopped and reported as timed out. */
  readonly timeoutMs?: number;
  /** Names the run's folder under test-results/e2e/ (default: `extension-tests`). */
  readonly name?: string;
  /** User settings for the code-server. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Extra environment for the server, its extension host and the tests. */
  readonly env?: Readonly<Record<string, string>>;
  /** VSIXes installed before start (e.g. dependencies of the extension under test). */
  readonly installVsix?: readonly string[];
}

/** The `json` reporter's output (the parts the harness reads). */
export interface MochaJsonReport {
  readonly stats: {
    suites: number;
    tests: number;
    passes: number;
    pending: number;
    failures: number;
    duration: number;
  };
  readonly tests: readonly MochaJsonTest[];
  readonly passes: readonly MochaJsonTest[];
  readonly failures: readonly MochaJsonTest[];
  readonly pending: readonly MochaJsonTest[];
}

export interface MochaJsonTest {
  readonly title: string;
  readonly fullTitle: string;
  readonly duration?: number;
  readonly err: { message?: string; stack?: string };
}

export interface ExtensionTestsResult {
  /** What the extension host exited with: 0 when `run()` resolved, 1 when it rejected; undefined on timeout. */
  readonly exitCode: number | undefined;
  readonly timedOut: boolean;
  /** The mocha report, when the runner wrote one. */
  readonly report: MochaJsonReport | undefined;
  readonly durationMs: number;
  /** Logs, workbench logs and the mocha report of this run. */
  readonly runDir: string;
}

export async function runExtensionTests(options: ExtensionTestsOptions): Promise<ExtensionTestsResult> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 120_000;
  for (const p of [options.extensionDevelopmentPath, options.extensionTestsPath, options.workspace]) {
    if (!existsSync(p)) throw new Error(`runExtensionTests: ${p} does not exist`);
  }
  const name = options.name ?? 'extension-tests';
  const resultFile = path.join(resultsDir, slug(name), 'mocha-results.json');
  const server = CodeServer.create({
    name,
    settings: options.settings,
    smokeTestDriver: true,
    // Read by hostRunner in the extension host, which inherits the server's env.
    env: { ...options.env, [resultFileEnv]: resultFile },
  });
  let browser: BrowserSession | undefined;
  try {
    for (const vsix of options.installVsix ?? []) await server.installExtension(vsix);
    await server.start();
    browser = await BrowserSession.launch({ consoleLogFile: path.join(server.runDir, 'browser-console.log') });
    const page = await browser.page();

    let onExit: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (onExit = resolve));
    const automationLog: string[] = [];
    await page.exposeFunction('codeAutomationLog', (level: string, message: string) =>
      automationLog.push(`${level}: ${message}`),
    );
    await page.exposeFunction(
      'codeAutomationExit',
      (code: number, logs?: ReadonlyArray<{ relativePath: string; contents: string }>) => {
        saveWorkbenchLogs(path.join(server.runDir, 'workbench-logs'), logs ?? []);
        onExit(code);
      },
    );

    const payload = JSON.stringify([
      ['extensionDevelopmentPath', server.remoteUri(options.extensionDevelopmentPath)],
      ['extensionTestsPath', server.remoteUri(options.extensionTestsPath)],
    ]);
    await page.goto(server.workbenchUrl(options.workspace, { payload }));

    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<undefined>(
      (resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, timeoutMs - (Date.now() - started)))),
    );
    const exitCode = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    if (exitCode === undefined) {
      await new Workbench(page).screenshot(`${name}-timeout`).catch(() => undefined);
    }
    writeFileSync(path.join(server.runDir, 'automation.log'), automationLog.join('\n') + '\n');
    return {
      exitCode,
      timedOut: exitCode === undefined,
      report: readReport(resultFile),
      durationMs: Date.now() - started,
      runDir: server.runDir,
    };
  } finally {
    await browser?.close();
    await server.stop();
  }
}

function readReport(file: string): MochaJsonReport | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as MochaJsonReport;
}

/** The workbench hands its own log files to codeAutomationExit; keep them. */
function saveWorkbenchLogs(dir: string, logs: ReadonlyArray<{ relativePath: string; contents: string }>): void {
  rmSync(dir, { recursive: true, force: true });
  for (const log of logs) {
    const file = path.join(dir, log.relativePath);
    if (!file.startsWith(dir + path.sep)) continue;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, log.contents);
  }
}

/** One line per test for a failure message: `✓ title` / `✗ title: message`. */
export function formatReport(report: MochaJsonReport | undefined): string {
  if (!report) return '(no mocha report was written)';
  const lines = report.tests.map((t) => {
    const failed = report.failures.find((f) => f.fullTitle === t.fullTitle);
    return failed ? `✗ ${t.fullTitle}: ${failed.err.message ?? ''}` : `✓ ${t.fullTitle}`;
  });
  const s = report.stats;
  return [...lines, `in-host mocha: ${s.passes} passing, ${s.failures} failing, ${s.pending} pending`].join('\n');
}
