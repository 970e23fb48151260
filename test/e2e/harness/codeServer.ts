// A fresh code-server (a real VS Code server + web workbench) per run, with its
// own user data, extensions and XDG folders in a temp dir, stopped by killing
// its whole process group. See shared/E2E.md.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  createWriteStream,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
  type WriteStream,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { assertHostInstalled, codeServerEntry, node24, resultsDir, slug } from './paths';

/** Settings that keep the workbench quiet and deterministic in tests. */
export const quietSettings: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  // The Chat view would take a third of the window in every screenshot.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
};

export interface CodeServerOptions {
  /** Names the run: logs go to `test-results/e2e/<name>/`. */
  readonly name: string;
  /** User settings written to `<user-data-dir>/User/settings.json` before start (merged over {@link quietSettings}). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Extra environment for the server and so for its extension host (and the MCP servers it spawns). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Passes `--vscode-option enable-smoke-test-driver`. Needed for the `payload`
   * URL parameter (extension tests) and window.codeAutomationExit; but with it
   * the workbench shows no notification toasts (they still reach the
   * notification center). Default: false.
   */
  readonly smokeTestDriver?: boolean;
  /** Readiness timeout for `/healthz`. */
  readonly startTimeoutMs?: number;
}

/**
 * Environment variables that code-server or VS Code read as configuration
 * (PASSWORD, GITHUB_TOKEN, VSCODE_OPTIONS, a parent VS Code's IPC hooks...):
 * a test server must not inherit them from whoever runs the tests.
 */
const inheritedConfig =
  /^(PASSWORD|HASHED_PASSWORD|GITHUB_TOKEN|VSCODE_.*|CS_.*|CODE_SERVER_.*|ELECTRON_RUN_AS_NODE|NODE_OPTIONS)$/;

/** One code-server process and its private folders. Create, install extensions, start, stop. */
export class CodeServer {
  /** Temp folder holding user data, extensions and XDG dirs; removed by {@link stop}. */
  readonly tempDir: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** `test-results/e2e/<name>/`: server log, copied server logs, screenshots of this run. */
  readonly runDir: string;
  readonly logFile: string;

  private process: ChildProcess | undefined;
  private log: WriteStream | undefined;
  private exited: Promise<void> | undefined;
  private _port = 0;

  private constructor(private readonly options: CodeServerOptions) {
    assertHostInstalled();
    // Short on purpose: VS Code puts unix sockets under TMPDIR (set below to
    // a folder in here) and a socket path must stay under 108 bytes.
    this.tempDir = mkdtempSync(path.join(os.tmpdir(), 'al-e2e-'));
    mkdirSync(path.join(this.tempDir, 'tmp'));
    this.userDataDir = path.join(this.tempDir, 'user-data');
    this.extensionsDir = path.join(this.tempDir, 'extensions');
    this.runDir = path.join(resultsDir, slug(options.name));
    this.logFile = path.join(this.runDir, 'code-server.log');
    rmSync(this.runDir, { recursive: true, force: true });
    for (const dir of [this.userDataDir, this.extensionsDir, this.runDir, path.join(this.userDataDir, 'User')]) {
      mkdirSync(dir, { recursive: true });
    }
    const settings = { ...quietSettings, ...options.settings };
    writeFileSync(path.join(this.userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  }

  /** Prepares the folders without starting: install extensions, then {@link start}. */
  static create(options: CodeServerOptions): CodeServer {
    return new CodeServer(options);
  }

  /** Prepares and starts in one go, for runs that install nothing. */
  static async start(options: CodeServerOptions): Promise<CodeServer> {
    const server = new CodeServer(options);
    await server.start();
    return server;
  }

  get port(): number {
    if (!this._port) throw new Error('code-server is not started');
    return this._port;
  }

  /** `http://127.0.0.1:PORT` */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The workbench URL for a folder, with optional extra query parameters (e.g. `payload`). */
  workbenchUrl(folder: string, query: Readonly<Record<string, string>> = {}): string {
    const params = new URLSearchParams({ folder: path.resolve(folder), ...query });
    return `${this.origin}/?${params.toString()}`;
  }

  /** A `vscode-remote://` URI for a path on this machine, as the workbench's payload wants it. */
  remoteUri(absPath: string): string {
    return `vscode-remote://127.0.0.1:${this.port}${path.resolve(absPath)}`;
  }

  /**
   * Installs a VSIX into this server's extensions dir with `code-server
   * --install-extension`. Call before {@link start}: a running workbench only
   * sees it after a reload.
   */
  async installExtension(vsixPath: string): Promise<void> {
    const out = await this.runCli(['--install-extension', path.resolve(vsixPath), '--force']);
    if (!/was successfully installed/.test(out)) {
      throw new Error(`installing ${vsixPath} printed no success line:\n${out}`);
    }
  }

  /** `code-server --list-extensions --show-versions` for this server's dirs. */
  async listExtensions(): Promise<string[]> {
    const out = await this.runCli(['--list-extensions', '--show-versions']);
    return out
      .split('\n')
      .filter((l) => /^[\w-]+\.[\w-]+@/.test(l.trim()))
      .map((l) => l.trim());
  }

  /** Spawns code-server on a free loopback port and waits for `/healthz`. */
  async start(): Promise<void> {
    if (this.process) throw new Error('code-server already started');
    this._port = await freePort();
    this.log = createWriteStream(this.logFile, { flags: 'a' });
    const args = [
      codeServerEntry,
      '--bind-addr',
      `127.0.0.1:${this._port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      // Makes the workbench honour the `payload` URL parameter
      // (extensionDevelopmentPath / extensionTestsPath) and call
      // window.codeAutomationExit; without it a test run hangs.
      ...(this.options.smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
      ...this.dirArgs(),
    ];
    this.log.write(`$ ${node24} ${args.join(' ')}\n`);
    // detached: its own process group, so stop() also ends the file watchers,
    // pty host and extension host it spawns.
    const child = spawn(node24, args, { env: this.env(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.process = child;
    if (child.pid !== undefined) liveGroups.add(child.pid);
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.log?.write(`\n[harness] code-server exited with ${code ?? signal}\n`);
        resolve();
      }),
    );
    await this.waitForHealth(this.options.startTimeoutMs ?? 30_000);
  }

  /** Kills the process group, waits for the exit, keeps server logs under {@link runDir}, removes the temp dir. */
  async stop(): Promise<void> {
    const child = this.process;
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      signalGroup(child.pid, 'SIGTERM');
      const forced = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), 5_000);
      await this.exited;
      clearTimeout(forced);
      // Helpers (file watchers, pty host) may outlive the leader: end them too.
      signalGroup(child.pid, 'SIGKILL');
      await waitForGroupGone(child.pid, 5_000);
    }
    if (child?.pid !== undefined) liveGroups.delete(child.pid);
    this.process = undefined;
    const serverLogs = path.join(this.userDataDir, 'logs');
    if (existsSync(serverLogs)) cpSync(serverLogs, path.join(this.runDir, 'server-logs'), { recursive: true });
    await new Promise<void>((resolve) => (this.log ? this.log.end(resolve) : resolve()));
    if (!process.env.E2E_KEEP_TEMP) rmSync(this.tempDir, { recursive: true, force: true });
  }

  private dirArgs(): string[] {
    return ['--user-data-dir', this.userDataDir, '--extensions-dir', this.extensionsDir];
  }

  private env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (!inheritedConfig.test(key)) env[key] = value;
    }
    // Else code-server writes its config and state into the home folder.
    env.XDG_CONFIG_HOME = path.join(this.tempDir, 'xdg-config');
    env.XDG_DATA_HOME = path.join(this.tempDir, 'xdg-data');
    env.XDG_CACHE_HOME = path.join(this.tempDir, 'xdg-cache');
    // Its IPC and git sockets (vscode-ipc-*.sock, vscode-git-*.sock) would
    // otherwise pile up in /tmp: here they go away with the temp dir.
    env.TMPDIR = path.join(this.tempDir, 'tmp');
    return { ...env, ...this.options.env };
  }

  private runCli(cliArgs: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(node24, [codeServerEntry, ...this.dirArgs(), ...cliArgs], {
        env: this.env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.once('error', reject);
      child.once('exit', (code) => {
        const entry = `$ code-server ${cliArgs.join(' ')}\n${out}\n`;
        if (this.log) this.log.write(entry);
        else appendFileSync(this.logFile, entry);
        if (code === 0) resolve(out);
        else reject(new Error(`code-server ${cliArgs.join(' ')} exited with ${code}:\n${out}`));
      });
    });
  }

  private async waitForHealth(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    while (Date.now() < deadline) {
      if (this.process?.exitCode !== null && this.process?.exitCode !== undefined) {
        throw new Error(`code-server exited with ${this.process.exitCode} before it was ready; see ${this.logFile}`);
      }
      try {
        const res = await fetch(`${this.origin}/healthz`);
        if (res.ok) return;
        lastError = new Error(`HTTP ${res.status}`);
      } catch (err) {
        lastError = err;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await this.stop();
    throw new Error(`code-server not healthy after ${timeoutMs} ms (${String(lastError)}); see ${this.logFile}`);
  }
}

/**
 * Process groups of servers not yet stopped. Detached groups outlive this
 * process, so a test run that dies without stop() still must not leave them.
 */
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
});

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

async function waitForGroupGone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(-pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
