import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import * as path from 'node:path';
import { cliPath, connect } from '../helpers/mcpClient';
import { readBuiltListing } from '../../src/mcp/listing/builtListing';
import { tempRepo } from '../helpers/tmp';

/**
 * Every schema tools/list gives — input and output, every family on — is read the same way by a
 * client whose validator speaks JSON Schema draft-07 (the MCP SDK 1.x client's Ajv, which checks
 * each structuredContent against the listed outputSchema) and by one that speaks 2020-12: each
 * compiles in Ajv's strict mode under both drafts, where a keyword one draft does not know (a
 * zod tuple's `prefixItems`) or a union type Ajv warns about is an error, and each is valid
 * against both meta-schemas.
 */
test('every listed schema compiles, strict, under draft-07 and 2020-12, and fits both meta-schemas', async () => {
  const c = await connect(tempRepo(), [
    '--enable-pm',
    '--enable-orchestrator',
    '--list-deprecated',
    '--list-runner-tools',
  ]);
  let tools: Tool[];
  try {
    ({ tools } = await c.client.listTools());
  } finally {
    await c.close();
  }
  // Every tool the build lists but another name of a listed one (same schemas).
  const built = readBuiltListing(path.dirname(cliPath))!.families;
  const expected = built.flatMap((f) =>
    f.tools.map((t) => t.name).filter((name) => f.facts[name]?.aliasOf === undefined),
  );
  assert.deepEqual(tools.map((t) => t.name).sort(), expected.sort(), 'every family on lists every tool');
  const drafts = { 'draft-07': Ajv, '2020-12': Ajv2020 } as const;
  const refused: string[] = [];
  for (const [draft, Validator] of Object.entries(drafts)) {
    const warnings: string[] = [];
    const logger = {
      log: () => undefined,
      warn: (...m: unknown[]) => warnings.push(m.join(' ')),
      error: () => undefined,
    };
    const ajv = new Validator({ strict: true, allErrors: true, logger });
    for (const tool of tools)
      for (const [io, schema] of [
        ['input', tool.inputSchema],
        ['output', tool.outputSchema],
      ] as const) {
        if (!schema) continue;
        if (!ajv.validateSchema(schema)) refused.push(`${draft} ${tool.name} ${io}: ${ajv.errorsText(ajv.errors)}`);
        try {
          ajv.compile(structuredClone(schema));
        } catch (err) {
          refused.push(`${draft} ${tool.name} ${io}: ${(err as Error).message}`);
        }
      }
    for (const w of warnings) refused.push(`${draft} warns: ${w}`);
  }
  assert.deepEqual(refused, []);
});

/**
 * The SDK 1.x client compiles the listed output schemas with its draft-07 Ajv on listTools() and
 * refuses an answer they do not accept: a fact with a provenance span, inserted and read back in
 * full, must pass that check.
 */
test('the SDK 1.x client inserts a fact with a provenance span and reads every fact back', async () => {
  const c = await connect(tempRepo(), ['--enable-orchestrator']);
  try {
    await c.client.listTools(); // the client now checks every answer against the listed schemas
    const provenance = [{ sourceId: 'src/a.ts', type: 'file', span: [1, 3] }];
    const inserted = await c.call<{ inserted: { provenance: unknown[] }[] }>('kg_insert', {
      triples: [{ subject: 'a', predicate: 'is', object: '2', provenance }],
    });
    assert.deepEqual(inserted.inserted[0].provenance, provenance);
    const queried = await c.call<{ triples: { subject: string; provenance: unknown[] }[] }>('kg_query', {});
    assert.deepEqual(
      queried.triples.map((t) => [t.subject, t.provenance]),
      [['a', provenance]],
    );
    const exported = await c.call<{ triples: { provenance: unknown[] }[] }>('kg_export', {});
    assert.deepEqual(exported.triples[0].provenance, provenance);
  } finally {
    await c.close();
  }
});
