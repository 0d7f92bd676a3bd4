import { getMessage as get } from './get-message.ts';
import { getMessages as getMany } from './get-messages.ts';
import { claimDueMessage as claim, settleMessage as settle } from './outbox.ts';
import { sendMessage as send } from './send-message.ts';
import { traced } from '../../telemetry/spans.ts';

export const { sendMessage, getMessage, getMessages, claimDueMessage, settleMessage } = traced('messages', {
  sendMessage: send,
  getMessage: get,
  getMessages: getMany,
  claimDueMessage: claim,
  settleMessage: settle,
});
export { retryDelay } from './outbox.ts';
export type { ClaimedMessage } from './outbox.ts';
export * from './message-schema.ts';
export { outboxBacklog } from './outbox-backlog.ts';
export type { OutboxBacklog } from './outbox-backlog.ts';
