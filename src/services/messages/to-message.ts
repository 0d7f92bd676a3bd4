import type { MessageRow } from '../../db/types.ts';
import type { Message } from './message-schema.ts';

export const messageColumns = ['id', 'message', 'status', 'created_at', 'updated_at', 'attempts', 'failure_reason'] as const;

export function toMessage(row: Pick<MessageRow, (typeof messageColumns)[number]>): Message {
  return {
    id: row.id,
    message: row.message,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    attempts: row.attempts,
    failureReason: row.failure_reason,
  };
}
