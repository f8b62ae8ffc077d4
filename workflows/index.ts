/** Every workflow the worker registers. Workflow code is deterministic: no I/O, no Node builtins, activity types only. */
export * from './analyticsRefresh';
export * from './audienceRefresh';
export * from './batchIngest';
export * from './diagnostics';
export * from './gatewayCall';
export * from './retention';
export * from './sendEmail';
export * from './automationRun';
export * from './automationLane';
export * from './runReplay';
export * from './backtest';
export * from './outboxSweep';
export * from './runWatchdog';
