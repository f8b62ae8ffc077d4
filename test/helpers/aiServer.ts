import { startProvider, type ProviderReply, type ReceivedRequest, type TestProvider } from './providerServer';

export interface TestAiServer {
  /** The value for `AI_BASE_URL`: the double serves `POST <baseUrl>/chat/completions`. */
  baseUrl: string;
  /** Every request it received, refused ones included. */
  requests: ReceivedRequest[];
  /** The bearer token it accepts; change it to make the worker's `AI_API_KEY` wrong. */
  apiKey: string;
  /** Replies queued ahead of the normal answer (e.g. a 503 to prove a retry), used once each in order. */
  queue: ProviderReply[];
  close(): Promise<void>;
}

/**
 * A loopback OpenAI-compatible chat endpoint. It checks the bearer token like the real service
 * (401 with an OpenAI-style error body otherwise) and answers a `chat.completion` whose content is
 * `answer(prompt, model)` and whose `model` echoes the requested one.
 *
 * @example const ai = await startAiServer({ apiKey: 'sk-test', answer: (prompt) => `Echo: ${prompt}` })
 */
export async function startAiServer(options: { apiKey: string; answer: (prompt: string, model: string) => string }): Promise<TestAiServer> {
  const server: TestAiServer = {
    baseUrl: '',
    requests: [],
    apiKey: options.apiKey,
    queue: [],
    close: () => provider.close(),
  };
  const provider: TestProvider = await startProvider((request) => {
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions')
      return { status: 404, body: { error: { message: 'Unknown route', type: 'invalid_request_error' } } };
    if (request.headers.authorization !== `Bearer ${server.apiKey}`) {
      return { status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } };
    }
    const queued = server.queue.shift();
    if (queued) return queued;
    const model = String(request.json?.model ?? '');
    const prompt = String(request.json?.messages?.at(-1)?.content ?? '');
    const content = options.answer(prompt, model);
    return {
      status: 200,
      body: {
        id: `chatcmpl-${server.requests.length}`,
        object: 'chat.completion',
        created: 1_767_225_600,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: prompt.length, completion_tokens: content.length, total_tokens: prompt.length + content.length },
      },
    };
  });
  server.baseUrl = `${provider.url}/v1`;
  server.requests = provider.requests;
  return server;
}
