import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import type { Message } from './message-schema.ts';
import { toMessage } from './send-message.ts';

/** Messages belong to the account that sent them: another account's message is "not found", not "forbidden". */
export async function getMessage(db: Kysely<Database>, accountId: number, id: string): Promise<Message> {
  const row = await db
    .selectFrom('messages')
    .select(['id', 'message', 'status', 'created_at'])
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw new AppError('MESSAGE_NOT_FOUND', `Message ${id} could not be found.`);
  return toMessage(row);
}
