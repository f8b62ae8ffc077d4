/** Every workflow the worker registers. Workflow code is deterministic: no I/O, no Node builtins, activity types only. */
export * from './diagnostics';
