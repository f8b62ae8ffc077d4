import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import type { TestApp } from './app';
import { http, type HttpResult, type RequestOptions } from './http';
import { createApiKey, signupOperator, type TestOperator } from './identity';

export interface DataClient {
  operator: TestOperator;
  key: string;
  /** A request to `/operator-data-api<path>` with the operator's key. */
  call: (path: string, options?: Omit<RequestOptions, 'token'>) => Promise<HttpResult>;
}

/** A fresh operator with an API key and, unless told otherwise, the iGaming template selected. */
export async function dataClient(app: TestApp, options: { template?: boolean } = {}): Promise<DataClient> {
  const operator = await signupOperator(app.url);
  const { key } = await createApiKey(app.url, operator);
  const call = (path: string, request: Omit<RequestOptions, 'token'> = {}) => http(`${app.url}/operator-data-api${path}`, { ...request, token: key });
  if (options.template !== false) {
    const response = await call('/settings', { method: 'PUT', body: { templateId: IGAMING_TEMPLATE_ID } });
    if (response.status !== 200) throw new Error(`settings failed: ${response.text}`);
  }
  return { operator, key, call };
}

/** Polls a batch job until it leaves queued/running. */
export async function waitForJob(client: DataClient, jobId: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.call(`/batch/jobs/${jobId}`);
    if (response.status !== 200) throw new Error(`job read failed: ${response.text}`);
    if (['completed', 'failed'].includes(response.body.data.status)) return response.body.data;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${response.body.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
