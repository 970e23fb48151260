// The baseline of the start-up benchmark: the smallest MCP server one writes on the same SDK —
// one tool, stdio, nothing else — started with plain `node`, as its README shows.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'minimal', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Answers with the text it was given.', inputSchema: { text: z.string() } },
  ({ text }) => ({
    content: [{ type: 'text', text }],
  }),
);
await server.connect(new StdioServerTransport());
