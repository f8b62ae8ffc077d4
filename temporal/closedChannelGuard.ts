import { InterceptingCall, Metadata, status, type Interceptor } from '@grpc/grpc-js';

type CallInterface = ConstructorParameters<typeof InterceptingCall>[0];

/** A call that never reached the channel: it ends at once, cancelled. */
function cancelledCall(details: string): CallInterface {
  return {
    start(_metadata: Metadata, listener?: Parameters<CallInterface['start']>[1]) {
      setImmediate(() => listener?.onReceiveStatus?.({ code: status.CANCELLED, details, metadata: new Metadata() }));
    },
    sendMessage: () => undefined,
    sendMessageWithContext: () => undefined,
    startRead: () => undefined,
    halfClose: () => undefined,
    cancelWithStatus: () => undefined,
    getPeer: () => '',
    getAuthContext: () => null,
  };
}

/**
 * Below the SDK's retry interceptor: a retry whose timer fires after the connection was closed (a process shutting down
 * with a call between two attempts) gets a cancelled call instead of the channel's synchronous "Channel has been shut
 * down", which, thrown from a timer, would end the process.
 */
export const closedChannelGuard: Interceptor = (options, nextCall) => {
  try {
    return new InterceptingCall(nextCall(options));
  } catch (error) {
    return new InterceptingCall(cancelledCall(`the connection is closed: ${(error as Error).message}`));
  }
};
