import createClient, { type Middleware } from 'openapi-fetch';
import { accessToken, auth } from '../auth/client';
import { dashboardCredential, forgetDashboardCredential } from '../auth/dashboardCredential';
import { ApiFailure, asFailure, failureOf } from './errors';
import type { paths } from './schema';

/** Requests that carried the member's session (not an API key): a 401 on them means the session ended. */
const sessionRequests = new WeakSet<Request>();
/** Requests that carried the dashboard credential, each with an unsent copy to repeat once with a fresh credential. */
const credentialRequests = new WeakMap<Request, Request>();

/** The areas that take API keys and the dashboard credential, never the session's access token (spec 4.2, 5). */
const DATA_PATHS = /^\/(operator-data-api|gateway)(\/|$)/;

const withBearer = (request: Request, token: string) => {
  request.headers.set('authorization', `Bearer ${token}`);
  return request;
};

/**
 * Every request carries the session: its access token, or on the data API and `/gateway` its dashboard credential.
 * When the server no longer accepts the session (suspended member, signed out elsewhere) the tab signs out rather
 * than showing errors everywhere; a refused dashboard credential is asked for again once, and the call repeated.
 */
const sessionMiddleware: Middleware = {
  async onRequest({ request, schemaPath }) {
    if (request.headers.has('authorization')) return request;
    if (DATA_PATHS.test(schemaPath)) {
      const credential = await dashboardCredential();
      if (!credential) return request;
      credentialRequests.set(request, request.clone());
      return withBearer(request, credential);
    }
    const token = await accessToken();
    if (token) {
      request.headers.set('authorization', `Bearer ${token}`);
      sessionRequests.add(request);
    }
    return request;
  },
  async onResponse({ request, response }) {
    if (response.status !== 401) return response;
    if (sessionRequests.has(request)) void auth.signOut({ scope: 'local' });
    const unsent = credentialRequests.get(request);
    if (!unsent) return response;
    forgetDashboardCredential();
    const credential = await dashboardCredential();
    return credential ? fetch(withBearer(unsent, credential)) : response;
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

/**
 * The JSON form of an answer that may also come as CSV (`format=csv` on analytics): the dashboard
 * never asks for CSV, so a string here is a server fault.
 */
export function json<T>(body: T): Exclude<T, string> {
  if (typeof body === 'string') throw new ApiFailure(0, 'UNEXPECTED_BODY', 'The server answered text where JSON was expected.');
  return body as Exclude<T, string>;
}
