/**
 * Ids the extension shares with package.json `contributes` (keep the two in step; the e2e tests
 * read package.json and fail on a mismatch). Command ids live in commands/commandIds.ts.
 */

/** The activity-bar container and its views (ids as in package.json `contributes.views`). */
export const Views = {
  Container: 'agentLedger',
  Tasks: 'agentLedger.tasks',
  Memory: 'agentLedger.memory',
  Agents: 'agentLedger.agents',
  Pipelines: 'agentLedger.pipelines',
  Blackboard: 'agentLedger.blackboard',
} as const;

export const WebviewTypes = {
  TaskDetail: 'agentLedger.taskDetail',
  Pipeline: 'agentLedger.pipeline',
  Board: 'agentLedger.board',
  PlanGraph: 'agentLedger.planGraph',
} as const;

/** `contributes.mcpServerDefinitionProviders[].id`. */
export const mcpProviderId = 'agentLedger.mcp';

/** The *Get Started* walkthrough: `<publisher>.<name>#<contributes.walkthroughs[].id>`. */
export const getStartedWalkthrough = 'agent-ledger.agent-ledger#agentLedger.getStarted';

/** The URI scheme of file contents read out of a task's snapshot (left side of the diff editor). */
export const snapshotScheme = 'agent-ledger-snapshot';

export const Settings = {
  Section: 'agentLedger',
  ToolFamilies: 'toolFamilies',
  ClaudeDesktopConfigPath: 'claudeDesktopConfigPath',
  WorktreesDir: 'worktreesDir',
  Database: 'database',
  Notifications: 'notifications.humanReview',
  PipelineNotifications: 'notifications.pipelineCheckpoints',
  ExplorerPressure: 'explorer.showPressure',
} as const;
