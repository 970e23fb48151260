import * as fs from 'node:fs';
import * as path from 'node:path';
import { readFileConfined } from '../../files/confinedPath';

/**
 * Layer 3 of the prompt: what kind of repository this is — language shares by bytes of
 * source, and the build and test commands its manifests declare.
 */
export interface RepoProfile {
  languages: { name: string; percent: number }[];
  build: string | null;
  test: string | null;
}

const languageByExtension: Record<string, string> = {
  ts: 'TypeScript',
  tsx: 'TypeScript',
  mts: 'TypeScript',
  cts: 'TypeScript',
  js: 'JavaScript',
  jsx: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  go: 'Go',
  rs: 'Rust',
  py: 'Python',
  java: 'Java',
  kt: 'Kotlin',
  kts: 'Kotlin',
  rb: 'Ruby',
  php: 'PHP',
  cs: 'C#',
  fs: 'F#',
  cpp: 'C++',
  cc: 'C++',
  cxx: 'C++',
  hpp: 'C++',
  hh: 'C++',
  c: 'C',
  h: 'C',
  swift: 'Swift',
  m: 'Objective-C',
  scala: 'Scala',
  sh: 'Shell',
  bash: 'Shell',
  zsh: 'Shell',
  vue: 'Vue',
  svelte: 'Svelte',
  dart: 'Dart',
  ex: 'Elixir',
  exs: 'Elixir',
  erl: 'Erlang',
  lua: 'Lua',
  sql: 'SQL',
  html: 'HTML',
  css: 'CSS',
  scss: 'CSS',
  less: 'CSS',
  r: 'R',
  jl: 'Julia',
  zig: 'Zig',
  hs: 'Haskell',
  ml: 'OCaml',
  clj: 'Clojure',
};

/** Folders that hold dependencies, build output or tool state rather than the project's own code. */
const skippedDirs = new Set([
  'node_modules',
  'dist',
  'build',
  'out',
  'target',
  'vendor',
  'venv',
  '__pycache__',
  'coverage',
  'bin',
  'obj',
  'Pods',
  'DerivedData',
]);

export interface ProfileOptions {
  /** Stop counting after this many files (the shares are already clear by then). */
  maxFiles?: number;
}

export function computeRepoProfile(root: string, options: ProfileOptions = {}): RepoProfile {
  return { languages: languageShares(root, options.maxFiles ?? 20_000), ...detectCommands(readManifests(root)) };
}

function languageShares(root: string, maxFiles: number): { name: string; percent: number }[] {
  const bytes = new Map<string, number>();
  let files = 0;
  const stack = [root];
  while (stack.length && files < maxFiles) {
    const dir = stack.pop() as string;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!skippedDirs.has(e.name)) stack.push(full);
        continue;
      }
      if (!e.isFile()) continue;
      const language = languageByExtension[path.extname(e.name).slice(1).toLowerCase()];
      if (!language || /\.min\.(js|css)$/.test(e.name) || e.name.endsWith('.d.ts')) continue;
      files++;
      try {
        bytes.set(language, (bytes.get(language) ?? 0) + fs.statSync(full).size);
      } catch {
        /* vanished meanwhile */
      }
    }
  }
  return shares(bytes);
}

/** Whole percents of the total, at least 1%, largest first, at most six languages. */
export function shares(bytes: ReadonlyMap<string, number>): { name: string; percent: number }[] {
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return [];
  return [...bytes.entries()]
    .map(([name, n]) => ({ name, percent: Math.round((n / total) * 100) }))
    .filter((l) => l.percent >= 1)
    .sort((a, b) => b.percent - a.percent || (a.name < b.name ? -1 : 1))
    .slice(0, 6);
}

export interface Manifests {
  packageJson?: string;
  makefile?: string;
  goMod?: boolean;
  cargoToml?: boolean;
  pyproject?: string;
  /** Lock files present: says which package manager runs the scripts. */
  lockfiles?: string[];
}

function readManifests(root: string): Manifests {
  const read = (name: string): string | undefined => {
    try {
      // Manifests feed prompts: one linked outside the workspace reads as absent.
      return readFileConfined(root, name);
    } catch {
      return undefined;
    }
  };
  return {
    packageJson: read('package.json'),
    makefile: read('Makefile') ?? read('makefile') ?? read('GNUmakefile'),
    goMod: fs.existsSync(path.join(root, 'go.mod')),
    cargoToml: fs.existsSync(path.join(root, 'Cargo.toml')),
    pyproject: read('pyproject.toml'),
    lockfiles: ['pnpm-lock.yaml', 'yarn.lock', 'bun.lockb', 'bun.lock'].filter((f) =>
      fs.existsSync(path.join(root, f)),
    ),
  };
}

const npmDefaultTest = /no test specified/;

/**
 * Build and test commands, first match wins: Makefile targets (a project that has one
 * means it), then package.json scripts, go.mod, Cargo.toml, pyproject.toml.
 */
export function detectCommands(m: Manifests): { build: string | null; test: string | null } {
  const candidates: { build: string | null; test: string | null }[] = [];
  if (m.makefile) {
    const targets = new Set([...m.makefile.matchAll(/^([A-Za-z0-9_.-]+)\s*:(?!=)/gm)].map((x) => x[1]));
    candidates.push({
      build: targets.has('build') ? 'make build' : null,
      test: targets.has('test') ? 'make test' : null,
    });
  }
  if (m.packageJson) {
    let scripts: Record<string, unknown> = {};
    try {
      scripts = ((JSON.parse(m.packageJson) as { scripts?: Record<string, unknown> }).scripts ?? {}) as Record<
        string,
        unknown
      >;
    } catch {
      /* unreadable package.json: no scripts */
    }
    const pm = m.lockfiles?.includes('pnpm-lock.yaml')
      ? 'pnpm'
      : m.lockfiles?.includes('yarn.lock')
        ? 'yarn'
        : m.lockfiles?.some((f) => f.startsWith('bun.'))
          ? 'bun'
          : 'npm';
    const test = typeof scripts.test === 'string' && !npmDefaultTest.test(scripts.test) ? `${pm} test` : null;
    candidates.push({ build: typeof scripts.build === 'string' ? `${pm} run build` : null, test });
  }
  if (m.goMod) candidates.push({ build: 'go build ./...', test: 'go test ./...' });
  if (m.cargoToml) candidates.push({ build: 'cargo build', test: 'cargo test' });
  if (m.pyproject) {
    const poetry = /\[tool\.poetry\]/.test(m.pyproject);
    const uv = /\[tool\.uv\]/.test(m.pyproject);
    const build = poetry
      ? 'poetry build'
      : uv
        ? 'uv build'
        : /\[build-system\]/.test(m.pyproject)
          ? 'python -m build'
          : null;
    const runner = poetry ? 'poetry run ' : uv ? 'uv run ' : '';
    candidates.push({ build, test: /pytest/.test(m.pyproject) ? `${runner}pytest` : null });
  }
  return { build: candidates.find((c) => c.build)?.build ?? null, test: candidates.find((c) => c.test)?.test ?? null };
}
