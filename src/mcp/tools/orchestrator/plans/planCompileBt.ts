import { planCompileInput, planCompileOutput } from '../../../../core/runtime/planRuns/planRunContracts';
import { walk } from '../../../../core/runtime/planRuns/behaviourTree';
import { leavesOf } from '../../../../core/runtime/planRuns/behaviourTree';
import { defineTool } from '../../../toolDefinition';

export const planCompileBtTool = defineTool({
  name: 'plan_compile_bt',
  family: 'orchestrator',
  title: 'Compile a plan into a behaviour tree',
  description:
    'Turn a plan graph (graph_id wf-<id>, or graph inline) into the behaviour tree plan_run_bt runs: one task leaf per node waiting for its dependencies, under a parallel node; node attributes decorate it (agent, retries, timeout_ms, fallback: another node, gate: what a person approves first, guard: a run variable). Changes nothing; a cycle or a node that is not a task is refused, named.',
  input: planCompileInput,
  output: planCompileOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (args, { services }) => {
    const tree = await services.planRuns.compile(args);
    let nodes = 0;
    walk(tree.root, () => nodes++);
    return { tree, leaves: leavesOf(tree.root).length, nodes };
  },
});
