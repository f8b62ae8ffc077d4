import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { commentFrame } from '../../core/mcpEvents';

/** Whether the client named `text/event-stream` in `Accept`; a wildcard does not count, so curl's default gets JSON. */
export function acceptsEventStream(ctx: Context): boolean {
  const accepted = ctx.accepts();
  return Array.isArray(accepted) && accepted.includes('text/event-stream');
}

/**
 * A `text/event-stream` response: frames written before it is served are buffered, a `: ping` comment goes out
 * every heartbeat so proxies keep the connection, and writes after the client left are dropped. Used by the
 * event-stream channels and by `tools/call` answers that stream progress.
 *
 * @example const response = new EventStreamResponse(); response.serve(ctx, 15_000); response.write(messageFrame(message)); response.end()
 */
export class EventStreamResponse {
  private readonly stream = new PassThrough();
  private readonly closeListeners: Array<() => void> = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private isClosed = false;

  get closed(): boolean {
    return this.isClosed;
  }

  write(frame: string): void {
    if (!this.isClosed && !this.stream.writableEnded) this.stream.write(frame);
  }

  /** Runs `listener` once the response is over, whoever ended it (at once if it already is). */
  onClose(listener: () => void): void {
    if (this.isClosed) listener();
    else this.closeListeners.push(listener);
  }

  /** Answers the request with this stream; a client already gone closes it at once. */
  serve(ctx: Context, heartbeatMs: number): void {
    this.heartbeat = setInterval(() => this.write(commentFrame('ping')), heartbeatMs);
    this.heartbeat.unref();
    ctx.res.once('close', () => this.close());
    this.stream.once('close', () => this.close());
    if (ctx.res.destroyed || ctx.req.socket.destroyed) {
      this.close();
      return;
    }
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set('Cache-Control', 'no-cache, no-transform');
    ctx.set('X-Accel-Buffering', 'no');
    ctx.body = this.stream;
  }

  /** Ends the response after the frames already written. */
  end(): void {
    if (!this.stream.writableEnded) this.stream.end();
    this.close();
  }

  private close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    clearInterval(this.heartbeat);
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
