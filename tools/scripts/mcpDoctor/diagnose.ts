import { challengeOf, Fault, resourceMetadata, serverMetadata, wellKnownResourceUrls } from './discovery';
import { authorize, checkServerMetadata, register, registrationOf, tokenEndpoint } from './flow';
import { HOSTS, type HostProfile } from './hosts';
import { ProbeError } from './probe';

/** One step of a host's sequence, as it went. */
export interface Step {
  check: string;
  ok: boolean;
  detail: string;
}

export interface HostReport {
  host: HostProfile;
  steps: Step[];
  /** The first step that failed: what to fix first for this host. */
  fault?: Step;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or http on loopback for a local try (no host on the internet reaches a loopback URL anyway). */
function transport(mcpUrl: string): string {
  const url = new URL(mcpUrl);
  if (url.protocol === 'https:') return 'https';
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return 'http on loopback: fine to try locally; a host on the internet needs https';
  throw new Fault('TLS', `${mcpUrl} is not https: Claude and ChatGPT connect only to https URLs with a publicly trusted certificate`);
}

/** Replays one host's discovery and authorization sequence against the MCP URL, stopping at its first fault. */
async function diagnoseHost(mcpUrl: string, host: HostProfile): Promise<HostReport> {
  const steps: Step[] = [];
  const step = async (check: string, run: () => Promise<string> | string) => {
    steps.push({ check, ok: true, detail: await run() });
  };
  try {
    await step('transport', () => transport(mcpUrl));
    const announced: string[] = [];
    for (const revision of host.revisions) {
      await step(`401 challenge (${revision})`, async () => {
        announced.push(await challengeOf(mcpUrl, revision));
        return `WWW-Authenticate points at ${announced.at(-1)}`;
      });
    }
    const wellKnown = wellKnownResourceUrls(mcpUrl);
    const candidates = host.pathAwareMetadata ? [...announced, wellKnown.pathAware, wellKnown.root] : [wellKnown.root];
    const prm = await resourceMetadata(mcpUrl, candidates);
    steps.push({ check: 'protected-resource metadata', ok: true, detail: `${prm.url}: resource ${String(prm.document.resource)}` });
    const issuer = (prm.document.authorization_servers as string[])[0]!;
    const metadata = await serverMetadata(issuer);
    await step('authorization-server metadata', () => [`issuer ${issuer}`, ...checkServerMetadata(host, metadata)].join('; '));
    const way = registrationOf(host, metadata);
    const scope = Array.isArray(prm.document.scopes_supported) ? prm.document.scopes_supported.join(' ') : '';
    if (way === 'cimd') steps.push({ check: 'registration', ok: true, detail: 'Client ID Metadata Document (the server fetches the host’s document)' });
    if (typeof metadata.registration_endpoint === 'string' && host.registration.includes('dcr')) {
      const clientId = await register(host, metadata);
      steps.push({ check: 'dynamic registration', ok: true, detail: `${host.redirectUris.length} redirect URI(s) accepted, client ${clientId.slice(0, 24)}…` });
      await step('authorize', () => authorize(host, metadata, clientId, mcpUrl, scope));
      await step('token endpoint', async () => {
        await tokenEndpoint(host, metadata, clientId, mcpUrl);
        return 'answers a form-encoded code exchange with an OAuth error';
      });
    }
    return { host, steps };
  } catch (error) {
    const fault =
      error instanceof Fault
        ? { check: error.check, ok: false, detail: error.message }
        : error instanceof ProbeError
          ? { check: 'network', ok: false, detail: error.message }
          : undefined;
    if (!fault) throw error;
    steps.push(fault);
    return { host, steps, fault };
  }
}

/** Each host's sequence against `mcpUrl`, one host at a time (the server's OAuth rate limits are per address). */
export async function diagnose(mcpUrl: string, hostIds?: string[]): Promise<HostReport[]> {
  const hosts = hostIds ? HOSTS.filter((host) => hostIds.includes(host.id)) : HOSTS;
  const reports: HostReport[] = [];
  for (const host of hosts) reports.push(await diagnoseHost(mcpUrl, host));
  return reports;
}
