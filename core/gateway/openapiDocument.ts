import { dereference, validate } from '@readme/openapi-parser';
import { Lexer, parse as parseYaml } from 'yaml';
import { findJsonBoundsProblem } from '../jsonBounds';
import { blueprintOf, type Blueprint } from './blueprint';

/**
 * How deeply a connector's document may nest objects and arrays: four times the API's `JSON_MAX_DEPTH`, as
 * generated documents inline schemas (each nested object schema costs two levels, `properties` and the property),
 * and one level under its create route's body bound, which wraps the document in `{ openapi }`.
 */
export const OPENAPI_DOCUMENT_MAX_DEPTH = 255;

/** Why a connector's document was refused; each problem is one line naming what is wrong and where. */
export class InvalidOpenApiError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid OpenAPI document: ${problems[0] ?? 'unknown problem'}`);
    this.name = 'InvalidOpenApiError';
  }
}

const MAX_PROBLEMS = 20;
/** External `$ref`s are never fetched or read: a connector document must not make the server open URLs or files. */
const NO_EXTERNAL_REFS = { resolve: { external: false, file: false } } as const;

/** The parser's messages carry a code frame; keep the rule and the marked source line. */
function summarise(message: string): string {
  const lines = message.split('\n');
  const rule = lines[0]?.trim() ?? message;
  const marked = lines.find((line) => /^>\s*\d+\s*\|/.test(line));
  const where = marked?.replace(/^>\s*(\d+)\s*\|\s*/, 'line $1: ').trim();
  return where ? `${rule} (at ${where})` : rule;
}

/**
 * The deepest flow collection (`[…]`, `{…}`) of YAML or JSON text, from yaml's lexer, which neither recurses nor
 * builds a tree: yaml's parser needs about 1 GB and 6 s for a million nested brackets, and a hundred thousand took
 * the process down. Block collections need a line and an indent more per level, so a body's size keeps them within
 * the depth where yaml's own stack overflow is caught.
 */
function flowDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '[' || token === '{') deepest = Math.max(deepest, (depth += 1));
    else if ((token === ']' || token === '}') && depth > 0) depth -= 1;
  }
  return deepest;
}

function tooDeep(value: unknown): InvalidOpenApiError | undefined {
  const tooDeepText = `nests deeper than ${OPENAPI_DOCUMENT_MAX_DEPTH} levels of objects and arrays`;
  if (typeof value === 'string') return flowDepth(value) > OPENAPI_DOCUMENT_MAX_DEPTH ? new InvalidOpenApiError([tooDeepText]) : undefined;
  const problem = findJsonBoundsProblem(JSON.stringify(value) ?? '', OPENAPI_DOCUMENT_MAX_DEPTH);
  return problem ? new InvalidOpenApiError([`${problem.message} (at ${problem.path.join('.')})`]) : undefined;
}

function asDocument(input: unknown): Record<string, unknown> {
  let value = input;
  if (typeof input === 'string') {
    const refused = tooDeep(input);
    if (refused) throw refused;
    try {
      value = parseYaml(input, { maxAliasCount: 100 });
    } catch (error) {
      throw new InvalidOpenApiError([`not valid JSON or YAML: ${(error as Error).message.split('\n')[0]}`]);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidOpenApiError(['the document must be an object (OpenAPI 3.x or Swagger 2.0)']);
  }
  const refused = tooDeep(value);
  if (refused) throw refused;
  return value as Record<string, unknown>;
}

/**
 * Parses (object, JSON text or YAML text), validates with `@readme/openapi-parser` and extracts the
 * gateway's blueprint from the dereferenced document. Returns the document as given (parsed) for
 * storage; throws `InvalidOpenApiError` naming the problems.
 *
 * @example const { document, blueprint } = await loadOpenApiDocument('openapi: 3.0.3\ninfo: …')
 */
export async function loadOpenApiDocument(input: unknown): Promise<{ document: Record<string, unknown>; blueprint: Blueprint }> {
  const document = asDocument(input);
  const result = await validate(structuredClone(document) as never, NO_EXTERNAL_REFS).catch((error: Error) => {
    throw new InvalidOpenApiError([summarise(error.message)]);
  });
  if (!result.valid) {
    throw new InvalidOpenApiError(result.errors.slice(0, MAX_PROBLEMS).map((error) => summarise(error.message)));
  }
  const dereferenced = await dereference(structuredClone(document) as never, { ...NO_EXTERNAL_REFS, dereference: { circular: 'ignore' } });
  return { document, blueprint: blueprintOf(dereferenced as unknown as Record<string, unknown>) };
}
