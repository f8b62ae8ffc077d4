import type { Middleware } from 'koa';
import { FUNCTIONS_PREFIX } from '../areas';

/** Makes `/functions/v1/<fn>/…` and `/<fn>/…` the same route by removing the prefix before routing. */
export function stripFunctionsPrefix(): Middleware {
  return async (ctx, next) => {
    if (ctx.path === FUNCTIONS_PREFIX || ctx.path.startsWith(`${FUNCTIONS_PREFIX}/`)) {
      ctx.path = ctx.path.slice(FUNCTIONS_PREFIX.length) || '/';
    }
    await next();
  };
}
