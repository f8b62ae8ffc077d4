import { temporal } from '@temporalio/proto';
import { payloadsIn } from '../../temporal/historyPayloads';
import { postgresPayloadStore } from '../../db/queries/temporalPayloads';
import { PlatformPayloadCodec } from '../../temporal/dataConverter';
import type { TestApp } from './app';

type History = temporal.api.history.v1.IHistory;

export { payloadsIn };

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
  const { keyring, config, db } = app.deps;
  const codec = new PlatformPayloadCodec(keyring, config.TEMPORAL_NAMESPACE, { store: postgresPayloadStore(db), maxBytes: config.TEMPORAL_PAYLOAD_MAX_BYTES });
  const decoded = await codec.decode(payloadsIn(history));
  return decoded.map((payload) => Buffer.from(payload.data ?? []).toString('utf8')).join('\n');
}
