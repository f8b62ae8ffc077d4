import type { ActivityDeps } from '../deps';
import { nodeFailure } from './failures';
import type { AiChatInput, AiChatOutput } from './types';
import { PAUSES, type ActivityDeclarations } from '../declarations';

interface ChatCompletion {
  model?: string;
  choices?: Array<{ message?: { content?: unknown } }>;
  usage?: unknown;
}

/**
 * `action.ai`: one chat completion from the OpenAI-compatible endpoint at `AI_BASE_URL`
 * (`POST <base>/chat/completions`, bearer `AI_API_KEY`). 429 and 5xx are retried; other refusals fail
 * the node with `AI_ERROR`; no endpoint configured is `AI_NOT_CONFIGURED`.
 */
export function createAiActivity(deps: ActivityDeps) {
  return {
    async automationAiChat(input: AiChatInput): Promise<AiChatOutput> {
      const base = deps.config.AI_BASE_URL;
      if (!base) throw nodeFailure('AI_NOT_CONFIGURED', 'AI_BASE_URL is not configured');
      const model = input.model ?? deps.config.AI_MODEL;
      let response: Response;
      try {
        response = await fetch(`${base.replace(/\/+$/, '')}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(deps.config.AI_API_KEY ? { authorization: `Bearer ${deps.config.AI_API_KEY}` } : {}) },
          body: JSON.stringify({ model, messages: [{ role: 'user', content: input.prompt }] }),
          signal: AbortSignal.timeout(deps.config.AI_TIMEOUT_MS),
        });
      } catch (error) {
        throw new Error(`AI endpoint unreachable: ${(error as Error).message}`, { cause: error });
      }
      if (response.status === 429 || response.status >= 500) throw new Error(`AI endpoint answered ${response.status}`);
      if (!response.ok) throw nodeFailure('AI_ERROR', `AI endpoint answered ${response.status}`);
      const completion = (await response.json().catch(() => ({}))) as ChatCompletion;
      const content = completion.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw nodeFailure('AI_ERROR', 'AI endpoint returned no message content');
      return { text: content, model: completion.model ?? model, usage: completion.usage ?? null };
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const AI_ACTIVITIES = {
  automationAiChat: PAUSES,
} satisfies ActivityDeclarations<typeof createAiActivity>;
