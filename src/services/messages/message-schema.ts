export const MESSAGE_MAX_LENGTH = 4096;
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
    id: { type: 'string', format: 'message-id', description: 'Identifier of the queued message, `msg_<digits>`.' },
    message: { type: 'string', description: 'Echo of the text.' },
    status: {
      type: 'string',
      enum: [...MESSAGE_STATUSES],
      description:
        '`queued`: accepted, and may not yet be processed; `sent`: delivered to the transport; `failed`: given up after retries.',
    },
    createdAt: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC timestamp.' },
    updatedAt: { type: 'string', format: 'date-time', description: 'When the status or attempts last changed.' },
    attempts: { type: 'integer', description: 'Delivery attempts made so far.' },
    failureReason: { type: ['string', 'null'], description: 'The last delivery error; null once sent.' },
  },
} as const;

export const messageIdSchema = { type: 'string', format: 'message-id', description: 'A message id, `msg_<digits>`.' } as const;
