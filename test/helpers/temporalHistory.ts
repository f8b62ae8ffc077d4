import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { KeyringPayloadCodec } from '../../temporal/payloadCodec';
import type { TestApp } from './app';

type History = temporal.api.history.v1.IHistory;

/** Every `Payload` in a history (inputs, results, memos, failure attributes, Update outcomes…), found by shape. */
export function payloadsIn(node: unknown, found: Payload[] = []): Payload[] {
  if (node === null || typeof node !== 'object' || node instanceof Uint8Array) return found;
  const candidate = node as { metadata?: unknown; data?: unknown };
  if (
    candidate.metadata &&
    typeof candidate.metadata === 'object' &&
    (candidate.data === undefined || candidate.data === null || candidate.data instanceof Uint8Array)
  ) {
    found.push(candidate as Payload);
  }
  for (const child of Array.isArray(node) ? node : Object.values(node)) payloadsIn(child, found);
  return found;
}

/**
 * The history of a workflow exactly as the Temporal server stores and serves it: one `GetWorkflowExecutionHistory`
 * on the raw gRPC service (no data converter anywhere on the way), serialized back to protobuf bytes.
 */
export async function rawHistory(app: TestApp, workflowId: string): Promise<{ history: History; bytes: Buffer }> {
  const pages: Buffer[] = [];
  const events: temporal.api.history.v1.IHistoryEvent[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const response = await app.deps.temporal.connection.workflowService.getWorkflowExecutionHistory({
      namespace: app.deps.config.TEMPORAL_NAMESPACE,
      execution: { workflowId },
      nextPageToken,
    });
    pages.push(Buffer.from(temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryResponse.encode(response).finish()));
    events.push(...(response.history?.events ?? []));
    nextPageToken = response.nextPageToken?.length ? response.nextPageToken : undefined;
  } while (nextPageToken);
  return { history: { events }, bytes: Buffer.concat(pages) };
}

/** Every payload of a workflow's history opened with the platform's codec, as text: what an Owner reads in the Temporal UI. */
export async function decodedHistoryText(app: TestApp, workflowId: string): Promise<string> {
  const { history } = await rawHistory(app, workflowId);
  const codec = new KeyringPayloadCodec(app.deps.keyring, app.deps.config.TEMPORAL_NAMESPACE);
  const decoded = await codec.decode(payloadsIn(history));
  return decoded.map((payload) => Buffer.from(payload.data ?? []).toString('utf8')).join('\n');
}
