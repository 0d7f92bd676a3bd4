import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/database-error.ts';
import type { Database, MessageRow } from '../../db/types.ts';
import { createValidator } from '../validation/validator.ts';
import { sendMessageSchema } from './message-schema.ts';
import type { Message, SendMessageInput } from './message-schema.ts';

const validateInput = createValidator<SendMessageInput>(sendMessageSchema, 'body');

// Milliseconds then six random digits: ids sort roughly by time and do not reveal a count.
function newMessageId(now: Date): string {
  return `msg_${now.getTime()}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

export function toMessage(row: Pick<MessageRow, 'id' | 'message' | 'status' | 'created_at'>): Message {
  return { id: row.id, message: row.message, status: row.status, createdAt: row.created_at };
}

/** Stores the message as `queued` for the sending account; the record is committed before this returns. */
export async function sendMessage(db: Kysely<Database>, accountId: number, input: unknown): Promise<Message> {
  const { message } = validateInput(input);
  for (let attempt = 0; ; attempt++) {
    const now = new Date();
    const row = { id: newMessageId(now), account_id: accountId, message, status: 'queued' as const, created_at: now.toISOString() };
    try {
      await db.insertInto('messages').values(row).execute();
      return toMessage(row);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}
