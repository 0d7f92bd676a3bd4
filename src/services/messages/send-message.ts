import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { createValidator } from '../validation/validator.ts';
import { sendMessageSchema } from './message-schema.ts';
import type { Message, SendMessageInput } from './message-schema.ts';
import { currentTraceParent } from '../../telemetry/spans.ts';
import { toMessage } from './to-message.ts';

const validateInput = createValidator<SendMessageInput>(sendMessageSchema);

// Milliseconds then six random digits: ids sort roughly by time and do not reveal a count.
function newMessageId(now: Date): string {
  return `msg_${now.getTime()}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

/**
 * Stores the message as `queued` and due now: the outbox row is committed before the answer
 * is sent, so an accepted message survives a crash and the delivery worker finds it.
 */
export async function sendMessage(db: Kysely<Database>, accountId: number, input: unknown, naming?: FieldNaming): Promise<Message> {
  const { message } = validateInput(input, naming);
  for (let attempt = 0; ; attempt++) {
    const now = new Date().toISOString();
    const row = {
      id: newMessageId(new Date(now)),
      account_id: accountId,
      message,
      status: 'queued' as const,
      created_at: now,
      updated_at: now,
      attempts: 0,
      next_attempt_at: now,
      failure_reason: null,
    };
    // Two messages in one millisecond with the same six random digits: draw again.
    const stored = await db
      .insertInto('messages')
      .values({ ...row, trace_parent: currentTraceParent() })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (stored) return toMessage(row);
    if (attempt >= 3) throw new Error('could not draw an unused message id');
  }
}
