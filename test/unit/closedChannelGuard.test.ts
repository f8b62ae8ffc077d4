import type { Interceptor } from '@grpc/grpc-js';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { closedChannelGuard } from '../../temporal/closedChannelGuard';

/**
 * A connection closed while the SDK's retry interceptor waits between two attempts of a call: without the guard the
 * retry throws "Channel has been shut down" from its timer — an uncaught exception that ends the process (jest saw it
 * as a suite that "failed to run", and fails this test) — and the call never settles. The call fails against an address
 * where nothing listens (UNAVAILABLE, which the SDK retries).
 */
describe('the closed-channel guard below the retry interceptor', () => {
  const retries = makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ initialIntervalMs: () => 200 }));

  async function callAcrossClose(interceptors: Interceptor[]) {
    const uncaught: string[] = [];
    const listener = (error: Error) => void uncaught.push(error.message);
    process.on('uncaughtException', listener);
    try {
      const connection = Connection.lazy({ address: '127.0.0.1:1', interceptors });
      const call = new Client({ connection }).workflowService.getSystemInfo({}).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      await connection.close();
      const settled = await Promise.race([call, new Promise((resolve) => setTimeout(() => resolve('still pending'), 2_000))]);
      return { settled, uncaught };
    } finally {
      process.off('uncaughtException', listener);
    }
  }

  it('ends a retry that fires after close as a cancelled call, with no uncaught exception', async () => {
    expect(await callAcrossClose([retries, closedChannelGuard])).toEqual({
      settled: '1 CANCELLED: the connection is closed: Channel has been shut down',
      uncaught: [],
    });
  });
});
