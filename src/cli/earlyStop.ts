/**
 * The runner's first moment: `agent-ledger runner` must stop cleanly on a SIGTERM or SIGINT that
 * comes before its command runs (loading the 3 MB CLI bundle and building the command tree take
 * ~0.3 s, more under load), as one that comes later. dist/cli.js (launcher.ts) holds such a stop
 * before it loads the bundle; the runner's command takes it once its own handlers listen. The two
 * are separate bundles: the stop travels on `process` under a registered symbol.
 *
 * What no JavaScript can close: a signal before Node runs its first line (its own start-up, tens
 * of milliseconds) has the default action. A supervisor that must not lose a stop closes the
 * runner's standard input too (`--stop-with-stdin`, as the editor's Stop Runner does).
 */
const key = Symbol.for('agent-ledger.runner.earlyStop');

interface EarlyStop {
  signal: NodeJS.Signals | null;
  /** Set by `passEarlyStopOn`: a signal that lands now gets its default action. */
  passOn: boolean;
  release(): void;
}

type WithEarlyStop = NodeJS.Process & { [key]?: EarlyStop };

/** Options of the command line that take a value (`--workspace <dir>`), so their value is not read as the command. */
const valued = new Set(['-w', '--workspace', '--db', '--worktrees-dir', '--child-program', '--child-env']);

/** The command a command line names (`runner` in `agent-ledger --workspace x runner --json`), or undefined. */
export function commandOf(argv: readonly string[]): string | undefined {
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (valued.has(a)) i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/** launcher.ts, first thing: for the runner, a stop that comes now is kept for it. */
export function holdEarlyStop(argv: readonly string[]): void {
  if (commandOf(argv) !== 'runner') return;
  const held: EarlyStop = {
    signal: null,
    passOn: false,
    release: () => {
      process.off('SIGINT', hold);
      process.off('SIGTERM', hold);
      delete (process as WithEarlyStop)[key];
    },
  };
  const hold = (signal: NodeJS.Signals): void => {
    held.signal ??= signal;
    if (held.passOn) defaultAction(held, signal);
  };
  process.on('SIGINT', hold);
  process.on('SIGTERM', hold);
  (process as WithEarlyStop)[key] = held;
}

/**
 * The runner's command, once its own handlers listen: the stop that came before, if any, and the
 * early handlers removed. A signal Node has received but not yet dispatched (its handlers run on
 * the event loop) reaches the runner's own handlers, which are installed by then.
 */
export function takeEarlyStop(): NodeJS.Signals | null {
  const held = (process as WithEarlyStop)[key];
  if (!held) return null;
  held.release();
  return held.signal;
}

/** `runner --once` listens for no stop: a signal that came early, or lands now, has its default action. */
export function passEarlyStopOn(): void {
  const held = (process as WithEarlyStop)[key];
  if (!held) return;
  held.passOn = true;
  if (held.signal) defaultAction(held, held.signal);
}

function defaultAction(held: EarlyStop, signal: NodeJS.Signals): void {
  // With no listener left, Node gives the signal back its default action: it ends the process.
  held.release();
  process.kill(process.pid, signal);
}
