import { api, call } from '../../../../api/client';
import type { BodyOf } from '../../../../api/types';

/** Runs the saved automation once on a sample event, marked as a test run. */
export const startTestRun = (id: string, body: BodyOf<'/workflows-api/workflows/{id}/test', 'post'>) =>
  call(api.POST('/workflows-api/workflows/{id}/test', { params: { path: { id } }, body }));

/** The automation's latest run, whose context an expression preview may evaluate against; none before the first. */
export const latestRun = async (id: string) =>
  (await call(api.GET('/workflows-api/workflows/{id}/runs', { params: { path: { id }, query: { limit: 1 } } }))).data[0] ?? null;

/** What an expression evaluates to on a run's context or a sample, as the engine would evaluate it. */
export const previewExpression = async (body: BodyOf<'/workflows-api/expressions/preview', 'post'>) =>
  (await call(api.POST('/workflows-api/expressions/preview', { body }))).data;
