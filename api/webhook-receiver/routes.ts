import Router from '@koa/router';
import type { AppDeps } from '../deps';

/** Inbound webhook receiver (spec 4.7) — being built. */
export function createWebhookReceiverRouter(_deps: AppDeps): Router {
  return new Router();
}
