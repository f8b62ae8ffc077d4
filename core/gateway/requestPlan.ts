import type { HttpMethod, IndexedOperation, SecurityRequirement } from './blueprint';

/** Everything needed to send the call except the credentials, which the sending activity applies itself. */
export interface RequestPlan {
  method: HttpMethod;
  /** The provider's path template, e.g. `/players/{playerId}`: what logs and events show (no values). */
  pathTemplate: string;
  baseUrl: string;
  /** The path with its parameters filled and percent-encoded. */
  path: string;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  /** JSON body; absent for GET and when no params are left for it. */
  body?: unknown;
  /** The security requirements that apply: the operation's own, else the document's. */
  security: SecurityRequirement[];
}

export type PlanResult = { ok: true; plan: RequestPlan } | { ok: false; missing: string[] };

function queryValues(name: string, value: unknown): Array<[string, string]> {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item) => queryValues(name, item));
  return [[name, typeof value === 'object' ? JSON.stringify(value) : String(value)]];
}

/**
 * Places params (already in provider names) on the chosen endpoint (DESIGN.md "Resolved ambiguities"):
 * path parameters first, then declared header parameters, then the query for GET or declared query
 * parameters, and every other param in the JSON body. Missing path parameters are reported, not guessed.
 *
 * @example buildRequestPlan(op, { playerId: 'p 1', limit: 5 }, 'https://kyc.example', []) // path '/players/p%201', query [['limit','5']]
 */
export function buildRequestPlan(
  operation: IndexedOperation,
  params: Record<string, unknown>,
  baseUrl: string,
  globalSecurity: SecurityRequirement[],
): PlanResult {
  const remaining = new Map(Object.entries(params));
  const missing: string[] = [];
  const path = operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = remaining.get(name);
    remaining.delete(name);
    if (value === undefined || value === null || value === '') {
      missing.push(name);
      return '';
    }
    return encodeURIComponent(typeof value === 'object' ? JSON.stringify(value) : String(value));
  });
  if (missing.length > 0) return { ok: false, missing };

  const declared = new Map(operation.parameters.map((parameter) => [parameter.name, parameter.in]));
  const headers: Record<string, string> = {};
  const query: Array<[string, string]> = [];
  const body: Record<string, unknown> = {};
  const inQuery = operation.method === 'GET';
  for (const [name, value] of remaining) {
    const where = declared.get(name);
    if (where === 'header' && value !== undefined && value !== null) headers[name] = String(value);
    else if (inQuery || where === 'query') query.push(...queryValues(name, value));
    else body[name] = value;
  }
  const plan: RequestPlan = {
    method: operation.method,
    pathTemplate: operation.path,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    path,
    query,
    headers,
    security: operation.security ?? globalSecurity,
  };
  if (!inQuery && Object.keys(body).length > 0) plan.body = body;
  return { ok: true, plan };
}

/** The absolute URL of a plan plus any extra query pairs (an apiKey in the query). */
export function urlOf(plan: Pick<RequestPlan, 'baseUrl' | 'path' | 'query'>, extraQuery: Array<[string, string]> = []): URL {
  const url = new URL(`${plan.baseUrl}${plan.path}`);
  for (const [name, value] of [...plan.query, ...extraQuery]) url.searchParams.append(name, value);
  return url;
}
