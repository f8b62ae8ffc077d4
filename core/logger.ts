import { trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger } from 'pino';

/** Field paths that must never reach a log line, whatever object they are nested in. */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'key',
  '*.key',
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'access_token',
  '*.access_token',
  'refresh_token',
  '*.refresh_token',
  'credentials',
  '*.credentials',
];

/**
 * The trace of the line's caller, so a log line leads to its trace and back (core/tracing.ts). Without a tracer
 * provider no span is ever active and this adds nothing.
 */
function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * The structured JSON logger. Redaction is a second line of defence: call sites log ids, codes and
 * timings, never bodies, headers or query strings.
 */
export function createLogger(level: string, base: Record<string, unknown> = {}, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'operator-platform', ...base }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, mixin: traceFields };
  return destination ? pino(options, destination) : pino(options);
}
