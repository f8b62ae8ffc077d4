import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/worker';
import { activeTracing } from '../core/tracing';

/**
 * The workflow interceptor modules every bundle compiles in (workflows/tracingInterceptors.ts): one bundle serves traced
 * and untraced workers alike, so a prebuilt bundle (`WORKFLOW_BUNDLE_PATH`) never depends on the environment of the
 * process that built it.
 */
export const WORKFLOW_INTERCEPTOR_MODULES = [require.resolve('../workflows/tracingInterceptors')];

/**
 * Where workflow spans go: the process's span processor when tracing is on, nowhere otherwise. Registered on every
 * worker: a traced API may start a run on an untraced worker, whose interceptors then call it, and the SDK logs every
 * call to an unregistered sink as an error.
 */
export function workflowTracingSinks(): InjectedSinks<OpenTelemetrySinks> {
  const tracing = activeTracing();
  return { exporter: tracing ? makeWorkflowExporter(tracing.spanProcessor, tracing.resource) : { export: { fn: () => undefined } } };
}

/** A RunActivity span around each activity, child of the workflow's StartActivity span; none when tracing is off. */
export function activityTracingInterceptors(): ActivityInterceptorsFactory[] {
  if (!activeTracing()) return [];
  return [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })];
}
