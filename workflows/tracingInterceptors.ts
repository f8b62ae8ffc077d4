import type { Headers, WorkflowInboundCallsInterceptor, WorkflowInterceptors, WorkflowOutboundCallsInterceptor } from '@temporalio/workflow';
import type * as OpenTelemetryWorkflow from '@temporalio/interceptors-opentelemetry/lib/workflow';

/** Where the client interceptor of `@temporalio/interceptors-opentelemetry` puts the caller's span context. */
const TRACE_HEADER = '_tracer-data';

interface Traced {
  inbound: OpenTelemetryWorkflow.OpenTelemetryInboundInterceptor;
  outbound: OpenTelemetryWorkflow.OpenTelemetryOutboundInterceptor;
  internals: OpenTelemetryWorkflow.OpenTelemetryInternalsInterceptor;
}

/**
 * Loads the OpenTelemetry integration into this run. A workflow evaluates the modules it imports once per run (the
 * reusable V8 context shares only the SDK's own), and the integration with the OpenTelemetry SDK under it is most of
 * the bundle: imported at the top, every run paid for it, traced or not, in workflow-thread time before its first
 * command and in heap while cached (`npm run bench:workflow-cost`). Required here, only a traced run pays it.
 */
function startTracing(): Traced {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated on first use, see above
  const otel = require('@temporalio/interceptors-opentelemetry/lib/workflow') as typeof OpenTelemetryWorkflow;
  return {
    inbound: new otel.OpenTelemetryInboundInterceptor(),
    outbound: new otel.OpenTelemetryOutboundInterceptor(),
    internals: new otel.OpenTelemetryInternalsInterceptor(),
  };
}

/**
 * The workflow interceptors of the OpenTelemetry integration, compiled into every workflow bundle
 * (`interceptors.workflowModules`: processes/workflowBundle.ts, worker/worker.ts), engaged only for a run whose start
 * (or a signal, update or query to it) arrives with a trace in its headers — from a client with tracing on
 * (temporal/client.ts). Such a run gets a RunWorkflow span continuing the caller's trace and a StartActivity span whose
 * context travels to each activity in its headers; every other run (Schedules, untraced processes, replays of untraced
 * histories) runs exactly as without them, creates no tracer and calls no sink. Headers are not part of what replay
 * compares, and the package's SDK flags keep recorded histories on the code paths they were recorded with (test/replay).
 * Spans leave the isolate through the `exporter` sink, which every worker registers (worker/tracing.ts).
 */
export const interceptors = (): WorkflowInterceptors => {
  let traced: Traced | undefined;
  const tracedBy = (headers: Headers): Traced | undefined => {
    if (TRACE_HEADER in headers) traced ??= startTracing();
    return traced;
  };
  const inbound: WorkflowInboundCallsInterceptor = {
    execute: (input, next) => tracedBy(input.headers)?.inbound.execute(input, next) ?? next(input),
    handleSignal: (input, next) => tracedBy(input.headers)?.inbound.handleSignal(input, next) ?? next(input),
    handleUpdate: (input, next) => tracedBy(input.headers)?.inbound.handleUpdate(input, next) ?? next(input),
    handleQuery: (input, next) => tracedBy(input.headers)?.inbound.handleQuery(input, next) ?? next(input),
    validateUpdate: (input, next) => {
      const tracing = tracedBy(input.headers);
      if (tracing) tracing.inbound.validateUpdate(input, next);
      else next(input);
    },
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => traced?.outbound.scheduleActivity(input, next) ?? next(input),
    scheduleLocalActivity: (input, next) => traced?.outbound.scheduleLocalActivity(input, next) ?? next(input),
    startChildWorkflowExecution: (input, next) => traced?.outbound.startChildWorkflowExecution(input, next) ?? next(input),
    continueAsNew: (input, next) => traced?.outbound.continueAsNew(input, next) ?? next(input),
    signalWorkflow: (input, next) => traced?.outbound.signalWorkflow(input, next) ?? next(input),
    getLogAttributes: (input, next) => traced?.outbound.getLogAttributes(input, next) ?? next(input),
  };
  return {
    inbound: [inbound],
    outbound: [outbound],
    internals: [{ dispose: (input, next) => (traced ? traced.internals.dispose(input, next) : next(input)) }],
  };
};
