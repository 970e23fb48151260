// Debian's Chromium driven by playwright-core, and a few helpers that speak
// the VS Code workbench's DOM (palette, tree views, notifications, status bar).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { chromiumPath, resultsDir, slug } from './paths';

/** Where {@link Workbench.screenshot} writes. */
export const screenshotsDir = path.join(resultsDir, 'screenshots');

/**
 * Flags for a closed network: without the background-networking ones Chromium
 * keeps trying Google's hosts and this machine refuses them, many at a time.
 */
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface BrowserOptions {
  /** Every page's console goes here, one line per message. */
  readonly consoleLogFile?: string;
  readonly viewport?: { width: number; height: number };
}

/** One Chromium with a fresh profile; {@link close} removes the profile. */
export class BrowserSession {
  private readonly consoleLines: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    private readonly profileDir: string,
    private readonly options: BrowserOptions,
  ) {
    context.on('page', (page) => this.captureConsole(page));
  }

  static async launch(options: BrowserOptions = {}): Promise<BrowserSession> {
    const profileDir = mkdtempSync(path.join(os.tmpdir(), 'agent-ledger-e2e-chromium-'));
    const context = await chromium.launchPersistentContext(profileDir, {
      executablePath: chromiumPath,
      headless: true,
      args: chromiumArgs,
      viewport: options.viewport ?? { width: 1400, height: 900 },
      // Else Chromium still writes crash-report settings and dconf state into
      // the home folder, whatever --user-data-dir says.
      env: {
        ...process.env,
        XDG_CONFIG_HOME: path.join(profileDir, 'xdg-config'),
        XDG_CACHE_HOME: path.join(profileDir, 'xdg-cache'),
      },
    });
    return new BrowserSession(context, profileDir, options);
  }

  /** The persistent context opens with one blank page; reuse it. */
  async page(): Promise<Page> {
    const page = this.context.pages()[0] ?? (await this.context.newPage());
    this.captureConsole(page);
    return page;
  }

  /** Another tab of the same browser (cookies shared, as a person's tabs are). */
  async newPage(): Promise<Page> {
    return this.context.newPage();
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    if (this.options.consoleLogFile) {
      mkdirSync(path.dirname(this.options.consoleLogFile), { recursive: true });
      writeFileSync(this.options.consoleLogFile, this.consoleLines.join('\n') + '\n');
    }
    rmSync(this.profileDir, { recursive: true, force: true });
  }

  private readonly captured = new WeakSet<Page>();
  private captureConsole(page: Page): void {
    if (this.captured.has(page)) return;
    this.captured.add(page);
    page.on('console', (msg) => this.consoleLines.push(`[${new Date().toISOString()}] ${msg.type()}: ${msg.text()}`));
    page.on('pageerror', (err) => this.consoleLines.push(`[${new Date().toISOString()}] pageerror: ${err.message}`));
  }
}

/** Helpers over a page that shows the VS Code workbench. */
export class Workbench {
  constructor(readonly page: Page) {}

  /** Navigates to a workbench URL and waits until the workbench has rendered its parts. */
  static async open(page: Page, url: string, timeoutMs = 60_000): Promise<Workbench> {
    await page.goto(url, { timeout: timeoutMs });
    const workbench = new Workbench(page);
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: timeoutMs });
    return workbench;
  }

  /**
   * Runs a command from the palette by its full title, e.g. `MCP: List Servers`
   * (F1, type, Enter). The palette's list is computed when it opens, and
   * extensions register their commands a few seconds after the workbench
   * shows: reopen until the command is the focused row.
   */
  async runCommand(title: string, timeoutMs = 30_000): Promise<void> {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    const focused = this.page.locator('.quick-input-widget .monaco-list-row.focused');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: timeoutMs });
      await input.fill(`>${title}`);
      // Enter picks the focused row: it must be the command asked for, not a
      // recently used one that matched the first letters.
      const match = focused.filter({ hasText: new RegExp(`^\\s*${escapeRegExp(title)}`) }).first();
      const found = await match.waitFor({ state: 'visible', timeout: 3_000 }).then(
        () => true,
        () => false,
      );
      if (found) {
        await this.page.keyboard.press('Enter');
        return;
      }
      await this.closeQuickInput();
      if (Date.now() > deadline) throw new Error(`palette command not found within ${timeoutMs} ms: ${title}`);
    }
  }

  /** Rows of the open quick pick (e.g. after `MCP: List Servers`), by their label text. */
  async quickPickLabels(timeoutMs = 15_000): Promise<string[]> {
    const rows = this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: timeoutMs });
    return rows.locator('.label-name').allInnerTexts();
  }

  /** Waits for a quick-pick row with this label text. */
  quickPickItem(label: string | RegExp): Locator {
    return this.page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ hasText: label })
      .first();
  }

  async closeQuickInput(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden' })
      .catch(() => undefined);
  }

  /** Clicks an activity-bar entry (a view container) by its title, unless already open. */
  async openViewContainer(title: string, timeoutMs = 15_000): Promise<void> {
    const item = this.page
      .locator('.part.activitybar .action-item')
      .filter({ has: this.page.locator(`a[aria-label^="${cssString(title)}"]`) })
      .first();
    await item.waitFor({ state: 'visible', timeout: timeoutMs });
    if (
      (await item.getAttribute('aria-selected')) !== 'true' &&
      !(await item.evaluate((el) => el.classList.contains('checked')))
    ) {
      await item.click();
    }
    const sidebarTitle = this.page
      .locator('.part.sidebar .composite.title')
      .filter({ hasText: new RegExp(escapeRegExp(title), 'i') });
    await sidebarTitle.first().waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /** A tree item in any view, by its label text; waits until it is visible. */
  async waitForTreeItem(label: string, timeoutMs = 15_000): Promise<Locator> {
    const item = this.page.getByRole('treeitem', { name: label }).first();
    await item.waitFor({ state: 'visible', timeout: timeoutMs });
    return item;
  }

  /**
   * A notification whose message contains the text, as a toast or in the
   * notification center; waits until it is visible. With the smoke-test driver
   * on, the workbench shows no toasts: then open the center first
   * ({@link showNotificationsCenter}).
   */
  async waitForNotification(text: string | RegExp, timeoutMs = 15_000): Promise<Locator> {
    const item = this.page
      .locator('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item')
      .filter({ hasText: text })
      .first();
    await item.waitFor({ state: 'visible', timeout: timeoutMs });
    return item;
  }

  /** Opens the notification center (the bell), where every notification is listed. */
  async showNotificationsCenter(): Promise<void> {
    await this.runCommand('Notifications: Show Notifications');
    await this.page.locator('.notifications-center.visible').waitFor({ state: 'visible' });
  }

  /** A status-bar entry that contains the text; waits until it is visible. */
  async waitForStatusBarText(text: string | RegExp, timeoutMs = 15_000): Promise<Locator> {
    const entry = this.page.locator('.part.statusbar .statusbar-item').filter({ hasText: text }).first();
    await entry.waitFor({ state: 'visible', timeout: timeoutMs });
    return entry;
  }

  /** Saves a full-window PNG to `test-results/e2e/screenshots/<name>.png` and returns its path. */
  async screenshot(name: string): Promise<string> {
    mkdirSync(screenshotsDir, { recursive: true });
    const file = path.join(screenshotsDir, `${slug(name)}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function cssString(value: string): string {
  return value.replace(/["\\]/g, '\\$&');
}
