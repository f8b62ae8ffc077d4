import Router from '@koa/router';
import type { AppDeps } from '../deps';

/** Workflow management (DESIGN.md Workflows) — being built. */
export function createWorkflowsApiRouter(_deps: AppDeps): Router {
  return new Router();
}
