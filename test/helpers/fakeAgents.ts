import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './tmp';

/** The folder of the scripted `claude`, `codex` and `gemini` (test/fixtures/agents/bin). */
export const fakeAgentsBin = path.resolve(__dirname, '../fixtures/agents/bin');

/** Values a step's arguments may reference. */
export type FakeRef = { $prompt: string } | { $result: [number, string?] } | { $env: string };

/** One step of a fake agent's script. */
export type FakeStep =
  | { call: string; args?: Record<string, unknown>; server?: string }
  | { exit: number }
  | { crash: true | 'abort' }
  | { hang: true; ignoreTerm?: boolean }
  | { print: string | FakeRef; times?: number; stream?: 'stdout' | 'stderr' }
  | { sleep: number }
  /** Writes a file, relative to the agent's working folder. */
  | { write: string; content?: string };

export interface FakeScript {
  steps: FakeStep[];
  /** A script per agent, chosen by the prompt's `agent_id: …` line (then `steps` is ignored). */
  byAgent?: Record<string, Omit<FakeScript, 'byAgent'>>;
  /** What the final output reports (cost only where the real client prints one: Claude Code). */
  usage?: {
    costUsd?: number;
    inputTokens?: number;
    outputTokens?: number;
    cacheReadTokens?: number;
    cacheWriteTokens?: number;
    reasoningTokens?: number;
  };
  /** The final answer. */
  result?: string;
}

/** The launched agent logs in as its prompt says (the runner's ticket stands in for the passkey). */
export const logIn: FakeStep = {
  call: 'authenticate',
  args: { agent_id: { $prompt: 'agent_id' }, project_id: { $prompt: 'project_id' } },
};

/** Logs in, takes its task, says `line`, then works until it is stopped (a run to stop from outside). */
export function workingUntilStopped(line: string, ...more: FakeStep[]): FakeScript {
  return { steps: [logIn, { call: 'get_my_task', args: {} }, ...more, { print: line }, { sleep: 120_000 }] };
}

/** How one fake was launched, as it recorded it (names of variables, never their values). */
export interface FakeRun {
  client: 'claude' | 'codex' | 'gemini';
  argv: string[];
  cwd: string;
  envKeys: string[];
  prompt: string;
  mcpServers: { name: string; command: string; args: string[]; envKeys: string[]; unresolved: string[] }[];
}

export interface FakeAgents {
  bin: string;
  /** File the fakes append their launch records to. */
  recordFile: string;
  /** Writes a script and returns the variables that make the fakes play it (PATH first on the fakes). */
  env(script?: FakeScript, base?: Record<string, string>): Record<string, string>;
  /** The launches recorded so far, oldest first. */
  runs(): FakeRun[];
}

/** Scripted agent CLIs for a test: a record file and scripts in a temp folder. */
export function fakeAgents(): FakeAgents {
  const dir = tempDir('agent-ledger-fakes-');
  const recordFile = path.join(dir, 'runs.jsonl');
  let scripts = 0;
  return {
    bin: fakeAgentsBin,
    recordFile,
    env(script: FakeScript = { steps: [] }, base: Record<string, string> = {}) {
      const file = path.join(dir, `script-${++scripts}.json`);
      fs.writeFileSync(file, JSON.stringify(script));
      // The fakes are `#!/usr/bin/env node` scripts: this node's folder must be on PATH too.
      const pathVar = [fakeAgentsBin, path.dirname(process.execPath), base.PATH ?? process.env.PATH ?? ''].join(
        path.delimiter,
      );
      return {
        HOME: process.env.HOME ?? dir,
        // A key for each client, as a person running agents has: the runner checks for one before it launches.
        ANTHROPIC_API_KEY: 'fake-anthropic-key',
        OPENAI_API_KEY: 'fake-openai-key',
        GEMINI_API_KEY: 'fake-gemini-key',
        ...base,
        PATH: pathVar,
        AGENT_LEDGER_FAKE_SCRIPT: file,
        AGENT_LEDGER_FAKE_RECORD: recordFile,
      };
    },
    runs() {
      if (!fs.existsSync(recordFile)) return [];
      return fs
        .readFileSync(recordFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as FakeRun);
    },
  };
}
