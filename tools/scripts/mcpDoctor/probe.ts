/** One HTTP exchange of the doctor: never follows a redirect, gives up after a timeout, names a TLS failure. */
export interface Exchange {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export class ProbeError extends Error {}

const TIMEOUT_MS = 10_000;
/** The most of a body read: metadata documents are a few KB. */
const MAX_BODY = 256 * 1024;

export async function probe(url: string, init: RequestInit = {}): Promise<Exchange> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code ?? '';
    if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code) || /certificate|tls/i.test(cause?.message ?? '')) {
      throw new ProbeError(`TLS: ${url} — ${cause?.message ?? code} (hosts accept only a certificate a public CA signed for the name)`);
    }
    if ((error as Error).name === 'TimeoutError') throw new ProbeError(`${url} did not answer within ${TIMEOUT_MS / 1000} s`);
    throw new ProbeError(`${url} could not be reached: ${cause?.message ?? (error as Error).message}`);
  }
  const text = (await response.text()).slice(0, MAX_BODY);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The attributes of a `WWW-Authenticate: Bearer …` challenge (RFC 6750 3), names lower-cased. */
export function bearerChallenge(header: string | null): Record<string, string> | null {
  if (!header || !/^\s*bearer\b/i.test(header)) return null;
  const attributes: Record<string, string> = {};
  for (const match of header.matchAll(/([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
    attributes[match[1]!.toLowerCase()] = match[2] ?? match[3] ?? '';
  }
  return attributes;
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
