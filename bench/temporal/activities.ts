/** The one activity of `bench:temporal`: returns its input, so only Temporal's own costs are timed. */
export async function echo(message: string): Promise<string> {
  return message;
}

/** One GET answered with its JSON body: the supplier call a gateway lane's local activity makes, without the gateway. */
export async function fetchJson(request: { url: string; headers: Record<string, string> }): Promise<unknown> {
  const response = await fetch(request.url, { headers: request.headers });
  if (!response.ok) throw new Error(`GET ${request.url}: HTTP ${response.status}`);
  return response.json();
}
