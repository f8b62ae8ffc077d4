import Koa from 'koa';
import { serveKoa } from './serveKoa';

/**
 * A bare Temporal shape behind the least an HTTP API does: a Koa handler that reads the JSON body, runs the shape and
 * answers its result as JSON — no routing, authentication, validation, rate limit or record. Beside the bare shape it
 * measures what the HTTP hop alone costs, so a benchmark can tell that hop from the platform's own work on top of it.
 *
 * @example const hop = await serveBareHop(() => bare.update(url, headers)); await client.send('POST', hop.url, headers, body)
 */
export function serveBareHop(shape: () => Promise<unknown>): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Koa();
  app.use(async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    ctx.body = { success: true, data: await shape() };
  });
  return serveKoa(app);
}
