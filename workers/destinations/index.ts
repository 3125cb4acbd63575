import type { Alert } from '../alerts/types.js';
import type { ChatSubscriber } from '../rules-file.js';
import { discord } from './discord.js';
import { ntfy } from './ntfy.js';
import { slack } from './slack.js';
import { telegram } from './telegram.js';
import type { Answer, ChatRequest, Outcome } from './types.js';

/** The request that posts `alert` to a chat subscriber. */
export function chatRequest(sub: ChatSubscriber, alert: Alert): ChatRequest {
  switch (sub.kind) {
    case 'discord':
      return discord.request(sub, alert);
    case 'slack':
      return slack.request(sub, alert);
    case 'telegram':
      return telegram.request(sub, alert);
    case 'ntfy':
      return ntfy.request(sub, alert);
  }
}

/** What the platform's answer means (sent, rate limited, permanent error, retry). */
export function readAnswer(kind: ChatSubscriber['kind'], answer: Answer): Outcome {
  return { discord, slack, telegram, ntfy }[kind].read(answer);
}
