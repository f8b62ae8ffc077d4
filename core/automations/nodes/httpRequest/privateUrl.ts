import { isIP } from 'node:net';
import { isPublicAddress } from '../../../gateway/addressPolicy';
import type { Problems } from '../checks';

/** Where a URL's address ends: the first `/`, `?` or `#` after `scheme://`. */
const LITERAL_ORIGIN = /^https?:\/\/[^/?#{}]+(?=[/?#]|$)/i;

/**
 * The host a URL names before any `{{ }}` template: the whole URL when it has none, else the part before the first
 * template when that part already ends its address (`http://10.0.0.5/{{ path }}`); null when a template builds the
 * host, which only the run-time guard can judge.
 */
function literalHost(url: string): string | null {
  const cut = url.indexOf('{{');
  const literal = cut === -1 ? url : url.slice(0, cut);
  const origin = LITERAL_ORIGIN.exec(literal)?.[0];
  if (!origin || (cut !== -1 && origin.length === literal.length)) return null;
  try {
    return new URL(origin).hostname;
  } catch {
    return null;
  }
}

/**
 * Whether a URL names a destination the gateway's SSRF guard (activities/gateway/safeFetch.ts, core/gateway/
 * addressPolicy.ts) will refuse whatever DNS says: an IP literal outside public unicast, or `localhost` and its
 * subdomains (RFC 6761 reserves them for loopback). A hostname that resolves to a private address passes here and is
 * refused at run time, when the address that is connected to is known.
 *
 * @example refusedUrl('http://127.0.0.1:8080/hook') // true
 * @example refusedUrl('https://hooks.example.com/{{ trigger.data.id }}') // false
 */
export function refusedUrl(url: string): boolean {
  const host = literalHost(url)?.toLowerCase();
  if (!host) return false;
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return isIP(bare) !== 0 && !isPublicAddress(bare);
}

/** The message a refused URL's problem carries: the rule, and that it is the run-time guard's. */
export const PRIVATE_URL_MESSAGE =
  'must not name a private, loopback or link-local address: the gateway refuses those when the step runs (GATEWAY_ALLOW_PRIVATE_NETWORKS is off)';

/** A problem per `action.http_request` whose literal URL the run-time guard would refuse, named `nodes[i].params.url`. */
export function privateUrlProblems(nodes: ReadonlyArray<{ type: string; params?: Record<string, unknown> }>): Problems {
  const problems: Problems = [];
  nodes.forEach((node, index) => {
    const url = node.params?.url;
    if (node.type === 'action.http_request' && typeof url === 'string' && refusedUrl(url)) {
      problems.push({ field: `nodes[${index}].params.url`, message: PRIVATE_URL_MESSAGE });
    }
  });
  return problems;
}
