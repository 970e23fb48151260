/**
 * A child runtime's environment is built, never the server's whole environment: the variables an
 * agent CLI needs to run (the inherited list below, and those a person adds with `--child-env`),
 * what the ledger adds (the database's location and password for a PostgreSQL ledger), and the
 * variables the call gives — except those that change which program runs or what it loads
 * (refused, below), so `env` cannot turn an allowed program into another one.
 */
import { childError } from './childErrors';

/** Variables a child inherits from the server when set there. */
export const inheritedVariables: readonly string[] = [
  // The system
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  // Windows
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  // The network
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
];

/** Prefixes of inherited variables: locale, and the agent CLIs' own settings and keys. */
export const inheritedPrefixes: readonly string[] = [
  'LC_',
  'ANTHROPIC_',
  'CLAUDE_',
  'OPENAI_',
  'CODEX_',
  'GEMINI_',
  'GOOGLE_',
];

/** Names a call may not set: they decide which program runs, what it loads, or where it reads its settings. */
const refusedNames = new Set([
  'PATH',
  'HOME',
  'ENV',
  'BASH_ENV',
  'IFS',
  'PS4',
  'PROMPT_COMMAND',
  'SHELLOPTS',
  'BASHOPTS',
  'GCONV_PATH',
  'CDPATH',
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'ELECTRON_RUN_AS_NODE',
]);
const refusedPrefixes = [
  'LD_',
  'DYLD_',
  'NODE_',
  'PYTHON',
  'PERL',
  'RUBY',
  'GIT_',
  'BASH_FUNC_',
  'JAVA_',
  '_JAVA_',
  'JDK_',
  'XDG_',
  'GEMINI_CLI_',
  'AGENT_LEDGER_',
];

function refused(name: string): boolean {
  const upper = name.toUpperCase();
  return refusedNames.has(upper) || refusedPrefixes.some((p) => upper.startsWith(p));
}

/** The inherited part: the listed variables of `env`, and those named in `extra` (`--child-env`). */
export function inheritedEnv(
  env: Readonly<Record<string, string | undefined>>,
  extra: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (inheritedVariables.includes(name) || inheritedPrefixes.some((p) => name.startsWith(p)) || extra.includes(name))
      out[name] = value;
  }
  return out;
}

/** Throws `E-CHILD-ENV` (ValidationError) for the first variable of a call's `env` that may not be set. */
export function checkCallerEnv(env: Readonly<Record<string, string>> | undefined): void {
  for (const name of Object.keys(env ?? {})) {
    if (!refused(name)) continue;
    throw childError(
      'E-CHILD-ENV',
      `${name} cannot be set for a child: it decides which program runs, what it loads or where it reads its settings. Refused: ${[...refusedNames].join(', ')} and every name starting with ${refusedPrefixes.join(', ')}.`,
      { variable: name },
    );
  }
}
