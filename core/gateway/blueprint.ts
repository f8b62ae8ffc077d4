/** The parts of a connector's OpenAPI document the gateway works from, extracted once when the connector is saved. */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
}

/** OpenAPI security requirement: alternatives (OR) of scheme sets (AND), scheme name → scopes. */
export type SecurityRequirement = Record<string, string[]>;

export interface IndexedOperation {
  method: HttpMethod;
  path: string;
  operationId: string | null;
  summary: string | null;
  parameters: OperationParameter[];
  /** The operation's own requirement list; `null` when it inherits the document's. */
  security: SecurityRequirement[] | null;
}

/** A security scheme reduced to how the gateway applies it (spec 4.3 "Outbound authentication"). */
export type SecurityScheme = { kind: 'apiKey'; name: string; in: 'header' | 'query' | 'cookie' } | { kind: 'bearer' } | { kind: 'basic' } | { kind: 'hmac' };

export interface Blueprint {
  specification: 'OpenAPI' | 'Swagger';
  /** Absolute base URL from the document's first server, or `null` when it has none (the connection must give one). */
  serverUrl: string | null;
  operations: IndexedOperation[];
  securitySchemes: Record<string, SecurityScheme>;
  security: SecurityRequirement[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

function parametersOf(list: unknown): OperationParameter[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((parameter): OperationParameter[] => {
    if (!isObject(parameter) || typeof parameter.name !== 'string') return [];
    const where = parameter.in;
    if (where !== 'path' && where !== 'query' && where !== 'header' && where !== 'cookie') return [];
    return [{ name: parameter.name, in: where, required: parameter.required === true || where === 'path' }];
  });
}

/** Path-level parameters apply to every operation; an operation's own parameter of the same name and place wins. */
function mergeParameters(pathLevel: OperationParameter[], own: OperationParameter[]): OperationParameter[] {
  const key = (parameter: OperationParameter) => `${parameter.in}:${parameter.name}`;
  const ownKeys = new Set(own.map(key));
  return [...pathLevel.filter((parameter) => !ownKeys.has(key(parameter))), ...own];
}

function securityOf(value: unknown): SecurityRequirement[] | null {
  if (!Array.isArray(value)) return null;
  return value
    .filter(isObject)
    .map((requirement) => Object.fromEntries(Object.entries(requirement).map(([name, scopes]) => [name, Array.isArray(scopes) ? scopes.map(String) : []])));
}

/**
 * HMAC has no standard OpenAPI type: a scheme counts as HMAC when it is `type: http` with scheme `hmac`
 * (or `hmac-sha256`), or an apiKey header named `X-Signature`.
 */
function schemeOf(raw: unknown): SecurityScheme | null {
  if (!isObject(raw)) return null;
  const scheme = typeof raw.scheme === 'string' ? raw.scheme.toLowerCase() : '';
  switch (raw.type) {
    case 'apiKey': {
      const name = text(raw.name);
      const where = raw.in;
      if (!name || (where !== 'header' && where !== 'query' && where !== 'cookie')) return null;
      if (where === 'header' && name.toLowerCase() === 'x-signature') return { kind: 'hmac' };
      return { kind: 'apiKey', name, in: where };
    }
    case 'http':
      if (scheme === 'basic') return { kind: 'basic' };
      if (scheme === 'hmac' || scheme === 'hmac-sha256') return { kind: 'hmac' };
      return { kind: 'bearer' };
    case 'basic':
      return { kind: 'basic' };
    case 'oauth2':
    case 'openIdConnect':
      return { kind: 'bearer' };
    default:
      return null;
  }
}

function serverUrlOf(document: Json): string | null {
  if (typeof document.swagger === 'string') {
    const host = text(document.host);
    if (!host) return null;
    const schemes = Array.isArray(document.schemes) ? document.schemes.map(String) : [];
    const scheme = schemes.includes('https') ? 'https' : (schemes[0] ?? 'https');
    return `${scheme}://${host}${text(document.basePath) ?? ''}`.replace(/\/+$/, '');
  }
  const first = Array.isArray(document.servers) ? document.servers[0] : undefined;
  if (!isObject(first) || typeof first.url !== 'string') return null;
  const variables = isObject(first.variables) ? first.variables : {};
  const url = first.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isObject(variable) && typeof variable.default === 'string' ? variable.default : whole;
  });
  return /^https?:\/\/[^/{}]+/i.test(url) && !url.includes('{') ? url.replace(/\/+$/, '') : null;
}

/**
 * Extracts operations, security schemes and the server URL from a validated, dereferenced OpenAPI 3.x
 * or Swagger 2.0 document, so the gateway never walks the whole document per call.
 *
 * @example blueprintOf(doc).operations[0] // { method: 'GET', path: '/players/{playerId}', operationId: 'getPlayer', … }
 */
export function blueprintOf(document: Json): Blueprint {
  const operations: IndexedOperation[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const pathLevel = parametersOf(item.parameters);
    for (const method of HTTP_METHODS) {
      const operation = item[method.toLowerCase()];
      if (!isObject(operation)) continue;
      operations.push({
        method,
        path,
        operationId: text(operation.operationId),
        summary: text(operation.summary) ?? text(operation.description),
        parameters: mergeParameters(pathLevel, parametersOf(operation.parameters)),
        security: securityOf(operation.security),
      });
    }
  }
  const rawSchemes =
    typeof document.swagger === 'string' ? document.securityDefinitions : isObject(document.components) ? document.components.securitySchemes : undefined;
  const securitySchemes: Record<string, SecurityScheme> = {};
  for (const [name, raw] of Object.entries(isObject(rawSchemes) ? rawSchemes : {})) {
    const scheme = schemeOf(raw);
    if (scheme) securitySchemes[name] = scheme;
  }
  return {
    specification: typeof document.swagger === 'string' ? 'Swagger' : 'OpenAPI',
    serverUrl: serverUrlOf(document),
    operations,
    securitySchemes,
    security: securityOf(document.security) ?? [],
  };
}
