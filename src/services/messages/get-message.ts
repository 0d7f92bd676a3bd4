import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import { MESSAGE_ID_PATTERN } from './message-schema.ts';
import type { Message } from './message-schema.ts';

const MESSAGE_ID_REGEX = new RegExp(MESSAGE_ID_PATTERN);
import { messageColumns, toMessage } from './to-message.ts';

/** Messages belong to the account that sent them: another account's message is "not found", not "forbidden". */
export async function getMessage(db: Kysely<Database>, accountId: number, id: string): Promise<Message> {
  if (!MESSAGE_ID_REGEX.test(id)) throw new AppError('VALIDATION_FAILED', 'Message id must look like msg_<digits>.');
  const row = await db
    .selectFrom('messages')
    .select(messageColumns)
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw new AppError('MESSAGE_NOT_FOUND', `Message ${id} could not be found.`);
  return toMessage(row);
}
