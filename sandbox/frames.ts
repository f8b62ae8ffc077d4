import { deserialize, serialize } from 'node:v8';
import type { Socket } from 'node:net';

/**
 * Messages between the worker and a sandbox process over a Unix socket: each one V8-serialized (what Node's IPC does
 * with `serialization: 'advanced'`) behind its length as 4 bytes, big-endian.
 */
export function writeFrame(socket: Socket, message: unknown): void {
  const body = serialize(message);
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(body.length);
  socket.cork();
  socket.write(head);
  socket.write(body);
  socket.uncork();
}

/**
 * Turns a socket's chunks back into messages. The chunks of a frame are joined once, when the frame is whole: a
 * task's context of megabytes arrives in many chunks, and joining at every chunk would copy it over and over.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private expected: number | undefined;

  /** `maxBytes`: a frame announced larger ends the reading with an error (a connection that has not said who it is). */
  constructor(
    private readonly onMessage: (message: unknown) => void,
    private readonly maxBytes = Infinity,
  ) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.expected === undefined) {
        if (this.buffered < 4) return;
        this.expected = this.take(4).readUInt32BE(0);
        if (this.expected > this.maxBytes) throw new Error(`a frame of ${this.expected} bytes, over ${this.maxBytes}`);
      }
      if (this.buffered < this.expected) return;
      const body = this.take(this.expected);
      this.expected = undefined;
      this.onMessage(deserialize(body));
    }
  }

  private take(bytes: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
    const rest = all.subarray(bytes);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return all.subarray(0, bytes);
  }
}
