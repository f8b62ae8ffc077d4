import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { commentFrame, decodeBusEnvelope, encodeBusEnvelope, messageFrame, progressNotification, streamSlotLockKey } from '../../core/mcpEvents';

function parse(text: string): { events: EventSourceMessage[]; comments: string[] } {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event), onComment: (comment) => comments.push(comment.trim()) });
  parser.feed(text);
  return { events, comments };
}

describe('event-stream frames', () => {
  it('writes comments and JSON-RPC messages that an SSE parser reads back', () => {
    const message = progressNotification({ progressToken: 'tok', progress: 1, total: 3, message: 'line one\nline two' });
    const { events, comments } = parse(commentFrame('ping') + commentFrame('multi\nline') + messageFrame(message));
    expect(comments).toEqual(['ping', 'multi line']);
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toBe('message');
    expect(JSON.parse(events[0]!.data)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'tok', progress: 1, total: 3, message: 'line one\nline two' },
    });
  });

  it('clips long progress messages so a NOTIFY payload stays small', () => {
    expect(progressNotification({ progressToken: 1, progress: 1, message: 'x'.repeat(5000) }).params.message).toHaveLength(500);
  });
});

describe('bus envelopes', () => {
  it('round-trips and refuses anything else', () => {
    const envelope = { origin: 'i1', operatorId: 'op', sessionId: 's', message: progressNotification({ progressToken: 't', progress: 2 }) };
    expect(decodeBusEnvelope(encodeBusEnvelope(envelope))).toEqual(envelope);
    expect(decodeBusEnvelope(undefined)).toBeNull();
    expect(decodeBusEnvelope('not json')).toBeNull();
    expect(decodeBusEnvelope(JSON.stringify({ ...envelope, message: { method: 'tools/call' } }))).toBeNull();
    expect(decodeBusEnvelope(JSON.stringify({ ...envelope, operatorId: 5 }))).toBeNull();
  });
});

describe('streamSlotLockKey', () => {
  it('is a stable signed 64-bit key per operator and slot', () => {
    const key = streamSlotLockKey('op-1', 0);
    expect(key).toBe(streamSlotLockKey('op-1', 0));
    expect(key).not.toBe(streamSlotLockKey('op-1', 1));
    expect(key).not.toBe(streamSlotLockKey('op-2', 0));
    const value = BigInt(key);
    expect(value >= -(2n ** 63n) && value < 2n ** 63n).toBe(true);
  });
});
