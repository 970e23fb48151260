import { eventsSubscribeInput, eventsSubscribeOutput } from '../../../../core/coordination/bus/eventContracts';
import { toBusEventRecord } from '../../../../core/coordination/bus/eventRecords';
import { renderSseStream, serialiseForSse, toSseMessage } from '../../../../core/coordination/bus/sse';
import { defineTool } from '../../../toolDefinition';

export const eventsSubscribeTool = defineTool({
  name: 'events_subscribe',
  family: 'orchestrator',
  feature: 'events-bus',
  waits: true,
  title: 'Subscribe to events',
  description:
    'Events of the whole ledger after from_seq, oldest first, filtered by family (cats), kind, level, correlation ids (run_id, op_id, job_id, graph_id, node_id, child_id) or resource URI prefix; every event carries the six ids, null when unknown. When none match yet it waits up to wait_ms for one from any process. Pass next_seq as from_seq next time; format "sse" renders the stream as Server-Sent Events.',
  input: eventsSubscribeInput,
  output: eventsSubscribeOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => {
    const { run_id, op_id, job_id, graph_id, node_id, child_id } = args;
    const page = await services.eventBus.page({
      fromSeq: args.from_seq ?? 0,
      limit: args.limit ?? 100,
      waitMs: args.wait_ms,
      filter: {
        cats: args.cats,
        kinds: args.kinds,
        levels: args.levels,
        run_id,
        op_id,
        job_id,
        graph_id,
        node_id,
        child_id,
        uri_prefix: args.uri_prefix,
      },
    });
    const events = page.events.map(toBusEventRecord);
    const format = args.format ?? 'jsonlines';
    const stream =
      format === 'sse' ? renderSseStream(events.map(toSseMessage)) : events.map((e) => serialiseForSse(e)).join('\n');
    return { format, events, stream, next_seq: page.next_seq, count: events.length };
  },
});
