import { timestampSchema } from '../validation/id-schema.ts';

export const MESSAGE_MAX_LENGTH = 4096;
/** Message ids, `msg_` and up to 32 digits (send-message.ts makes them from the time and a random number). */
export const MESSAGE_ID_PATTERN = /^msg_[0-9]{1,32}$/;
const MESSAGE_ID_MAX_LENGTH = 'msg_'.length + 32;
/**
 * Contract §2.6 shows `queued` ("accepted but may not yet be processed"); delivery adds
 * `sent` (the transport took it) and `failed` (it gave up after bounded retries).
 */
export const MESSAGE_STATUSES = ['queued', 'sent', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface Message {
  id: string;
  message: string;
  status: MessageStatus;
  createdAt: string;
  updatedAt: string;
  /** Delivery attempts made so far. */
  attempts: number;
  /** The last delivery error; null once sent. */
  failureReason: string | null;
}

export interface SendMessageInput {
  message: string;
}

export const sendMessageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['message'],
  properties: {
    message: { type: 'string', minLength: 1, maxLength: MESSAGE_MAX_LENGTH, description: 'The text to send.' },
  },
} as const;

export const messageSchema = {
  type: 'object',
  required: ['id', 'message', 'status', 'createdAt', 'updatedAt', 'attempts', 'failureReason'],
  properties: {
    id: {
      type: 'string',
      format: 'message-id',
      maxLength: MESSAGE_ID_MAX_LENGTH,
      description: 'Identifier of the queued message, `msg_<digits>`.',
    },
    message: { type: 'string', maxLength: MESSAGE_MAX_LENGTH, description: 'Echo of the text.' },
    status: {
      type: 'string',
      enum: [...MESSAGE_STATUSES],
      description:
        '`queued`: accepted, and may not yet be processed; `sent`: delivered to the transport; `failed`: given up after retries.',
    },
    createdAt: { ...timestampSchema, description: 'ISO 8601 UTC timestamp.' },
    updatedAt: { ...timestampSchema, description: 'When the status or attempts last changed.' },
    attempts: {
      type: 'integer',
      format: 'int32',
      minimum: 0,
      maximum: 100,
      description: 'Delivery attempts made so far (MESSAGE_MAX_ATTEMPTS is at most 100).',
    },
    failureReason: { type: ['string', 'null'], maxLength: 200, description: 'The last delivery error; null once sent.' },
  },
} as const;

export const messageIdSchema = {
  type: 'string',
  format: 'message-id',
  maxLength: MESSAGE_ID_MAX_LENGTH,
  description: 'A message id, `msg_<digits>`.',
} as const;
