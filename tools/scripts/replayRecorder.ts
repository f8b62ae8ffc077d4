import type { AppDeps } from '../../api/deps';

/** What each replay scenario records with: the stack's URL, a signed-up operator, the app's deps and the history writer. */
export interface Recorder {
  url: string;
  operator: { operatorId: string; accessToken: string; apiKey: string };
  deps: AppDeps;
  /** Writes the history of one workflow run (its latest run when `runId` is not given) under `name`. */
  save(name: string, workflowId: string, runId?: string): Promise<void>;
}
