import type { HttpMethod, IndexedOperation } from './blueprint';

/** Spec 4.3 "Action keyword to HTTP method"; an action with none of these words is a POST. */
export const ACTION_KEYWORDS: Record<HttpMethod, readonly string[]> = {
  GET: ['verify', 'check', 'get', 'list', 'fetch', 'read', 'search', 'find', 'status', 'balance'],
  POST: ['create', 'deposit', 'submit', 'send', 'initiate', 'register', 'start'],
  PATCH: ['update', 'modify', 'edit'],
  PUT: ['replace', 'set'],
  DELETE: ['delete', 'remove', 'cancel', 'revoke'],
};

const KEYWORD_METHOD = new Map<string, HttpMethod>(
  (Object.entries(ACTION_KEYWORDS) as Array<[HttpMethod, readonly string[]]>).flatMap(([method, words]) => words.map((word) => [word, method] as const)),
);

const SCORE = {
  entitySegment: 10,
  entityWords: 6,
  method: 6,
  actionInPath: 8,
  actionInOperationId: 4,
  actionInSummary: 2,
  pathParameterFilled: 2,
  pathParameterMissing: -4,
} as const;

/** Words of an identifier or sentence: `getPlayerBalance`, `kyc-checks`, `Verify a player` → lower-case tokens. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function singular(word: string): string {
  if (word.length > 3 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && /(s|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 2 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

const sameWord = (a: string, b: string) => singular(a) === singular(b);

/** A looser match for actions against prose: `verify` ~ `verification`, `create` ~ `creation`. */
function relatedWord(a: string, b: string): boolean {
  if (sameWord(a, b)) return true;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter.length >= 5 && longer.startsWith(shorter.slice(0, -1));
}

/** The HTTP method an action implies: the first of its words found in the keyword table, else POST. */
export function methodForAction(action: string): HttpMethod {
  for (const word of wordsOf(action)) {
    const method = KEYWORD_METHOD.get(word);
    if (method) return method;
  }
  return 'POST';
}

/** Splits `entity.action`; `null` when the text is not two non-empty parts around one dot. */
export function parseOperation(operation: string): { entity: string; action: string } | null {
  const match = /^\s*([^.\s]+)\.([^.\s]+)\s*$/.exec(operation);
  return match ? { entity: match[1]!, action: match[2]! } : null;
}

const staticSegments = (path: string) => path.split('/').filter((segment) => segment !== '' && !segment.includes('{'));
const pathParameterNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);

/** 10 when a whole path segment names the entity (`players` for `player`), 6 when its words run inside the path (`/kyc/checks` for `kycCheck`). */
function entityScore(entity: string, path: string): number {
  const wanted = wordsOf(entity);
  const segments = staticSegments(path).map(wordsOf);
  if (segments.some((words) => sameWord(words.join(''), wanted.join('')))) return SCORE.entitySegment;
  const pathWords = segments.flat();
  for (let start = 0; start + wanted.length <= pathWords.length; start += 1) {
    if (wanted.every((word, offset) => sameWord(pathWords[start + offset]!, word))) return SCORE.entityWords;
  }
  return 0;
}

function actionScore(actionWords: string[], operation: IndexedOperation): number {
  const pathWords = staticSegments(operation.path).flatMap(wordsOf);
  const idWords = operation.operationId ? wordsOf(operation.operationId) : [];
  const summaryWords = operation.summary ? wordsOf(operation.summary) : [];
  const hit = (words: string[], match: (a: string, b: string) => boolean) => actionWords.some((action) => words.some((word) => match(action, word)));
  let score = 0;
  if (hit(pathWords, sameWord)) score += SCORE.actionInPath;
  if (hit(idWords, relatedWord)) score += SCORE.actionInOperationId;
  if (hit(summaryWords, relatedWord)) score += SCORE.actionInSummary;
  return score;
}

export interface OperationMatch {
  operation: IndexedOperation;
  score: number;
}

/**
 * Chooses the provider endpoint for `entity.action` (spec 4.3): the entity must name a path segment;
 * the action scores through the keyword method and through the path, operationId and summary; path
 * parameters that the params can fill count for, missing ones against. Highest score wins, document
 * order breaks ties; `null` when no endpoint names the entity or none relates to the action.
 *
 * @example matchOperation(ops, 'player.verify', ['playerId'])?.operation.path // '/kyc/players/{playerId}/verify'
 */
export function matchOperation(operations: readonly IndexedOperation[], operation: string, paramNames: readonly string[]): OperationMatch | null {
  const parsed = parseOperation(operation);
  if (!parsed) return null;
  const method = methodForAction(parsed.action);
  const actionWords = wordsOf(parsed.action);
  const provided = new Set(paramNames);
  let best: OperationMatch | null = null;
  for (const candidate of operations) {
    const entity = entityScore(parsed.entity, candidate.path);
    if (entity === 0) continue;
    const methodScore = candidate.method === method ? SCORE.method : 0;
    const action = actionScore(actionWords, candidate);
    if (methodScore === 0 && action === 0) continue;
    const parameters = pathParameterNames(candidate.path).reduce(
      (sum, name) => sum + (provided.has(name) ? SCORE.pathParameterFilled : SCORE.pathParameterMissing),
      0,
    );
    const score = entity + methodScore + action + parameters;
    if (!best || score > best.score) best = { operation: candidate, score };
  }
  return best;
}
