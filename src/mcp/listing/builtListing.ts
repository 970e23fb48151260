import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Tool } from '@modelcontextprotocol/server';
import type { ToolDefinition } from '../toolDefinition';

/** One family's tools exactly as tools/list gives them, and whether it serves MCP prompts. */
export interface ListedFamily {
  name: string;
  tools: Tool[];
  prompts: boolean;
  /** What the server decides a tool's exposure by, for the tools that declare it (by tool name). */
  facts: Record<string, ListedFacts>;
}

/** A tool's facts that decide whether a server exposes and lists it (its definition says them). */
export type ListedFacts = Pick<ToolDefinition, 'feature' | 'deprecated' | 'audience' | 'aliasOf'>;

/** Every family's listing, introspection first, then the switchable families in catalog order. */
export interface ToolListing {
  families: ListedFamily[];
}

/** Where the build writes the listing: beside the bundle (esbuild.mjs). */
export const builtListingFile = 'toolsListing.json';

/**
 * The tools list the build computed from the zod contracts (`dist/toolsListing.json`), so that
 * `mcp serve` answers tools/list without building a single schema; undefined when running from
 * sources, where the listing is computed live (liveListing.ts). test/mcp/toolsListing.test.ts
 * holds the built listing equal to the live one.
 */
export function readBuiltListing(dir: string = __dirname): ToolListing | undefined {
  const file = path.join(dir, builtListingFile);
  if (!read.has(file)) {
    let listing: ToolListing | undefined;
    try {
      listing = JSON.parse(fs.readFileSync(file, 'utf8')) as ToolListing;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    read.set(file, listing);
  }
  return read.get(file);
}

/** Read once per process (the CLI's option help and `mcp serve` both ask). */
const read = new Map<string, ToolListing | undefined>();
