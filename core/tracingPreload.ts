/**
 * The first import of every entry point (processes/api.ts, processes/worker.ts, processes/start.ts): `http` and `pg`
 * are patched when they are required, so the hooks must be in place before any other module loads them. A no-op
 * unless an OTLP endpoint is configured (core/tracing.ts).
 */
import { instrumentLibraries } from './tracing';

instrumentLibraries();
