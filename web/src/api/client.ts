import createClient, { type Middleware } from 'openapi-fetch';
import { accessToken, auth } from '../auth/client';
import { ApiFailure, asFailure, failureOf } from './errors';
import type { paths } from './schema';

/** Requests that carried the member's session (not an API key): a 401 on them means the session ended. */
const sessionRequests = new WeakSet<Request>();

/**
 * Every request carries the session's access token unless the caller set its own Authorization (the
 * data API, `/gateway` and batch jobs take an API key). When the server no longer accepts the session
 * (suspended member, signed out elsewhere) the tab signs out rather than showing errors everywhere.
 */
const sessionMiddleware: Middleware = {
  async onRequest({ request }) {
    if (request.headers.has('authorization')) return request;
    const token = await accessToken();
    if (token) {
      request.headers.set('authorization', `Bearer ${token}`);
      sessionRequests.add(request);
    }
    return request;
  },
  async onResponse({ request, response }) {
    if (response.status === 401 && sessionRequests.has(request)) void auth.signOut({ scope: 'local' });
    return response;
  },
};

/** The typed client, generated from the API's own `/openapi.json` (`npm run build:web`). */
export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use(sessionMiddleware);

type Result<D> = { data?: D; error?: unknown; response: Response };

/**
 * Awaits an `api.*` call and returns its body, or throws an `ApiFailure` in the area's terms.
 *
 * @example const keys = await call(api.GET('/api-keys'))
 */
export async function call<D>(request: Promise<Result<D>>): Promise<D> {
  let result: Result<D>;
  try {
    result = await request;
  } catch (error) {
    throw asFailure(error);
  }
  if (!result.response.ok || result.error !== undefined) throw failureOf(result.response.status, result.error, result.response.headers);
  return result.data as D;
}

/** Headers for a call made with an API key instead of the session. */
export const withKey = (key: string) => ({ authorization: `Bearer ${key}` });

/**
 * The JSON form of an answer that may also come as CSV (`format=csv` on analytics): the dashboard
 * never asks for CSV, so a string here is a server fault.
 */
export function json<T>(body: T): Exclude<T, string> {
  if (typeof body === 'string') throw new ApiFailure(0, 'UNEXPECTED_BODY', 'The server answered text where JSON was expected.');
  return body as Exclude<T, string>;
}
