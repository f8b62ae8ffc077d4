import { dereference, validate } from '@readme/openapi-parser';
import { parse as parseYaml } from 'yaml';
import { blueprintOf, type Blueprint } from './blueprint';

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

function asDocument(input: unknown): Record<string, unknown> {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = parseYaml(input, { maxAliasCount: 100 });
    } catch (error) {
      throw new InvalidOpenApiError([`not valid JSON or YAML: ${(error as Error).message.split('\n')[0]}`]);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidOpenApiError(['the document must be an object (OpenAPI 3.x or Swagger 2.0)']);
  }
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
