import { Client, Connection } from '@temporalio/client';

export interface TemporalClient {
  client: Client;
  connection: Connection;
}

/**
 * Connects the Temporal client used by the API (starting workflows, querying runs). It retries for
 * `waitMs` so a process started together with its Temporal server does not race it.
 */
export async function connectTemporal(options: { address: string; namespace: string; waitMs?: number }): Promise<TemporalClient> {
  const deadline = Date.now() + (options.waitMs ?? 30_000);
  for (;;) {
    try {
      const connection = await Connection.connect({ address: options.address, connectTimeout: 5000 });
      return { connection, client: new Client({ connection, namespace: options.namespace }) };
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
