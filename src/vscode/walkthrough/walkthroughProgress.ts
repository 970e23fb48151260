import * as vscode from 'vscode';

/**
 * The Get Started walkthrough's steps complete on the real action, by whichever path the person
 * took: a palette command reaches VS Code's command service (`onCommand:`), but a webview, the
 * Board or a tree's inline button runs the extension's code directly, which VS Code never sees.
 * So each action sets a context key (package.json: `completionEvents: onContext:<key>`); VS Code
 * marks the step done and keeps it in its own storage.
 */
export const WalkthroughKeys = {
  /** The Tasks view, visible, shows a task (it may have been open since before any task existed). */
  WatchedTask: 'agentLedger.walkthrough.watchedTask',
  /** A task's detail opened (tree, Board, status bar, a link, a notification, the palette). */
  OpenedTask: 'agentLedger.walkthrough.openedTask',
  /** A file's diff opened from a task (the detail's file list, the palette). */
  OpenedDiff: 'agentLedger.walkthrough.openedDiff',
  /** A person decided: a checkpoint, or a task's review request (webview, Board, tree, palette). */
  Decided: 'agentLedger.walkthrough.decided',
} as const;

const set = new Set<string>();

/** Marks the step of `key` done (once per window: the key stays true). */
export function walkthroughDone(key: (typeof WalkthroughKeys)[keyof typeof WalkthroughKeys]): void {
  if (set.has(key)) return;
  set.add(key);
  void vscode.commands.executeCommand('setContext', key, true);
}
