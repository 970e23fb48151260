/** A workflow: a container of tasks with an optional plan (a pipeline run is a workflow too). */
export interface PlanStep {
  step: string;
  goal: string;
}

export interface Workflow {
  id: number;
  name: string;
  description: string | null;
  plan: PlanStep[];
  /** 'workflow', or 'pipeline' for a pipeline run. */
  kind: string;
  createdAt: string;
  updatedAt: string;
}
