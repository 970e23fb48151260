/**
 * v25: a plan run may run its tasks with a client (and model) of its own, as a task queued with
 * `--client`/`--model` does (`agent-ledger plan run wf-3 --agent coder --client codex`): each task
 * leaf is queued with them, else with its agent's.
 */
export const v25PlanRunClients: readonly string[] = [
  'ALTER TABLE plan_runs ADD COLUMN run_client TEXT',
  'ALTER TABLE plan_runs ADD COLUMN run_model TEXT',
];
