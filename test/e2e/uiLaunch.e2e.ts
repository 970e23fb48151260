// How a person starts the web board: `agent-ledger ui --open` hands the platform's opener a page
// only they can read (the token never on a command line nor in a log) and a real Chromium given
// that page lands on the Board; the server listens on loopback only and has no way to listen
// elsewhere.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { BrowserSession } from './harness/browser';
import { chromiumPath } from './harness/paths';
import { cliPath } from '../helpers/mcpClient';
import { cliJson } from '../helpers/cli';
import { ledgerEnv, testStore } from '../helpers/testLedger';
import { tempDir, tempRepo } from '../helpers/tmp';
import { until } from '../helpers/processes';
import { startUi } from './harness/uiProcess';

/** The platform's opener (`xdg-open` here) as a script that records what it was given. */
function recordingOpener(): { bin: string; record: string } {
  const bin = tempDir('agent-ledger-opener-');
  const record = path.join(bin, 'opened.json');
  const opener = process.platform === 'darwin' ? 'open' : 'xdg-open';
  fs.writeFileSync(
    path.join(bin, opener),
    `#!${process.execPath}
const fs = require('node:fs');
const file = process.argv[2];
const stat = fs.statSync(file);
fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(2), mode: stat.mode & 0o777, page: fs.readFileSync(file, 'utf8') }));
`,
    { mode: 0o755 },
  );
  return { bin, record };
}

function get(
  port: number,
  pathname: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname, headers }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
      })
      .on('error', reject);
  });
}

/** A non-loopback IPv4 address of this machine, when it has one. */
function outsideAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(3000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe(
  `starting agent-ledger ui (${testStore})`,
  { skip: fs.existsSync(chromiumPath) ? false : `no ${chromiumPath}` },
  () => {
    let repo: string;
    let browser: BrowserSession;

    before(async () => {
      repo = tempRepo({ 'README.md': '# demo\n' });
      cliJson(['task', 'create', 'Write the changelog', '--workspace', repo]);
      browser = await BrowserSession.launch({ viewport: { width: 1280, height: 800 } });
    });

    after(async () => {
      await browser?.close();
    });

    it('--open gives the opener a page only the person can read; a browser given it lands on the Board; the token is on no command line and in no log', async () => {
      const { bin, record } = recordingOpener();
      const child = spawn(process.execPath, [cliPath, 'ui', '--open', '--workspace', repo], {
        env: { ...ledgerEnv(repo), NO_COLOR: '1', PATH: `${bin}${path.delimiter}${process.env.PATH}` },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      try {
        const opened = await until('the opener to be called', () =>
          fs.existsSync(record)
            ? (JSON.parse(fs.readFileSync(record, 'utf8')) as { argv: string[]; mode: number; page: string })
            : undefined,
        );
        const printed = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(stdout)?.[1];
        assert.ok(printed, `the address is printed once, on stdout: ${stdout}`);
        const token = new URL(printed).searchParams.get('token')!;
        assert.ok(token.length >= 32, 'a random token in the address');

        assert.equal(opened.argv.length, 1, 'the opener gets one argument');
        assert.ok(!opened.argv[0].includes(token), 'the token is not on the opener’s command line');
        assert.ok(path.isAbsolute(opened.argv[0]) && opened.argv[0].endsWith('.html'), opened.argv[0]);
        assert.equal(opened.mode, 0o600, 'the page is readable by its owner only');
        assert.ok(opened.page.includes(printed.replace(/&/g, '&#38;')), 'the page leads to the printed address');
        assert.ok(!stderr.includes(token), `the token is in no log line: ${stderr}`);

        // A browser started on that page: it follows to the board, and the token leaves the address bar.
        const page = await browser.page();
        await page.goto(`file://${opened.argv[0]}`);
        await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/(#.*)?$/, { timeout: 15_000 });
        await page.locator('[data-card="task-1"]').waitFor({ state: 'visible', timeout: 15_000 });
        assert.ok(!page.url().includes(token));
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      assert.ok(!stderr.includes(stdout.trim().split(' ').at(-1)!), 'nothing of the address in the log');
    });

    it('listens on loopback only: not reachable on the machine’s other address, and there is no option to listen elsewhere', async () => {
      const ui = await startUi(repo);
      try {
        assert.equal(await connects('127.0.0.1', ui.port), true);
        // Another site may lead the browser to the address with the token (the page --open writes),
        // nothing else: no other kind of request, and not without the right token.
        const host = `127.0.0.1:${ui.port}`;
        const crossSite = { host, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' };
        const opened = await get(ui.port, `/?token=${ui.token}`, crossSite);
        assert.equal(opened.status, 200);
        assert.match(String(opened.headers['set-cookie']), /HttpOnly; SameSite=Strict/);
        assert.equal((await get(ui.port, '/?token=wrong', crossSite)).status, 403);
        assert.equal(
          (await get(ui.port, `/?token=${ui.token}`, { ...crossSite, 'sec-fetch-mode': 'no-cors' })).status,
          403,
          'an <img> of another site, with the token',
        );
        assert.equal((await get(ui.port, `/app.js?token=${ui.token}`, crossSite)).status, 403, 'only the page itself');
        const outside = outsideAddress();
        if (outside) assert.equal(await connects(outside, ui.port), false, `not listening on ${outside}`);
        for (const flag of [
          ['--host', '0.0.0.0'],
          ['--bind', '0.0.0.0'],
          ['--port', '0.0.0.0:0'],
        ]) {
          const r = spawnSync(process.execPath, [cliPath, 'ui', '--workspace', repo, ...flag], {
            env: { ...ledgerEnv(repo), NO_COLOR: '1' },
            encoding: 'utf8',
            timeout: 30_000,
          });
          assert.notEqual(r.status, 0, `ui ${flag.join(' ')} is refused`);
          assert.equal(r.signal, null, `ui ${flag.join(' ')} ended by itself, it did not serve`);
          assert.equal(r.stdout, '', 'no address printed');
          assert.match(r.stderr, /unknown option|--port takes a port number/);
        }
      } finally {
        ui.child.kill('SIGTERM');
      }
    });
  },
);
