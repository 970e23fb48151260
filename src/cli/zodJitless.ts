// Imported first by the CLI's entry (main.ts), before any zod schema exists: zod 4 compiles a
// parser per object schema with `new Function` the first time the schema parses, ~40-60 ms of
// compilation spread over a server's first messages and first calls, each schema parsed a handful
// of times in a process's life. Without it zod walks the schema, a few microseconds more per parse
// (docs/performance.md, "first call after the list").
import { config } from 'zod/v4/core';

config({ jitless: true });
