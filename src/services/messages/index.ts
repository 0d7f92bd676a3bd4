export { sendMessage } from './send-message.ts';
export { getMessage } from './get-message.ts';
export { claimDueMessage, settleMessage, retryDelay } from './outbox.ts';
export type { ClaimedMessage } from './outbox.ts';
export * from './message-schema.ts';
export { getMessages } from './get-messages.ts';
