export { sendMessage } from './send-message.ts';
export { getMessage } from './get-message.ts';
export * from './message-schema.ts';
