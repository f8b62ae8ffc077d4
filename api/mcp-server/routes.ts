import Router from '@koa/router';
import type { AppDeps } from '../deps';

/** MCP server (spec 4.6) — being built. */
export function createMcpServerRouter(_deps: AppDeps): Router {
  return new Router();
}
