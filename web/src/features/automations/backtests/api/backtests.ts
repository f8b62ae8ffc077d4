import { api, call } from '../../../../api/client';
import type { BodyOf } from '../../../../api/types';

export const startBacktest = async (id: string, body: BodyOf<'/workflows-api/workflows/{id}/backtests', 'post'>) =>
  (await call(api.POST('/workflows-api/workflows/{id}/backtests', { params: { path: { id } }, body }))).data;

/** A backtest's progress and result; the panel polls it while it runs. */
export const getBacktest = async (backtestId: string) =>
  (await call(api.GET('/workflows-api/backtests/{backtestId}', { params: { path: { backtestId } } }))).data;

export const cancelBacktest = async (backtestId: string) =>
  (await call(api.POST('/workflows-api/backtests/{backtestId}/cancel', { params: { path: { backtestId } } }))).data;
