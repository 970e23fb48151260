import type { Services } from '../app/services';
import type { ViewRoute } from '../shared/protocol';
import type { BoardModel } from '../shared/protocol';

/** What a view's session on the server may use: the ledger, the person, its page. */
export interface ViewContext {
  services: Services;
  folder: { name: string; root: string };
  /** The OS user who started `agent-ledger ui`: a person's actions are recorded as theirs. */
  person: string;
  /** Sends a message of the view's protocol to its page. */
  post<M extends { type: string }>(message: M): void;
  /** Opens another view in the page (a card, a task, a pipeline was clicked). */
  navigate(to: ViewRoute): void;
  log(line: string): void;
  /** The Board, read once per change for every page that shows it. */
  board: LiveBoard;
}

/**
 * One page's view on the server: it answers the page's messages (`ready` first) and follows the
 * ledger. The same models and protocol as the VS Code panels (src/views/, src/shared/protocol.ts).
 */
export interface ViewSession {
  receive(message: { type: string } & Record<string, unknown>): Promise<void>;
  /** Some process or machine wrote to the ledger. */
  changed(): void;
  dispose(): void;
}

/** The Board model shared by every page that shows it: read once per change, whatever the number of tabs. */
export interface LiveBoard {
  /** The latest model (read now when none is held). */
  current(): Promise<BoardModel>;
  /** Calls `listener` with each new model. */
  onModel(listener: (model: BoardModel) => void): { dispose(): void };
  /** Reads the board again now. */
  refresh(): void;
}
