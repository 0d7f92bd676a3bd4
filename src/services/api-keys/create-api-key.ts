import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import type { Scope } from '../access-tokens/scopes.ts';
import type { NewApiKeyWithSecret } from './api-key-schema.ts';
import {
  ACCOUNT_NAME_PATTERN,
  ACCOUNT_NAME_RULE,
  generateApiKey,
  hashApiKey,
  keyPrefix,
  SUBJECT_ACCOUNT_NAME_PATTERN,
} from './key-format.ts';

/** A key the operator made, with the account it was made for. */
export interface CreatedApiKey extends NewApiKeyWithSecret {
  account: string;
}

export interface NewKeyOptions {
  name?: string | null;
  /** What the key may do; null: everything. */
  scopes?: readonly Scope[] | null;
  /** Refuse (API_KEY_LIMIT_REACHED) when the account already has this many unrevoked keys. */
  activeKeyCap?: number;
}

const activeKeys = (trx: Transaction<Database>, accountId: number) =>
  trx
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null);

/**
 * A new key for an account that exists, inside the caller's transaction; API_KEY_LIMIT_REACHED
 * when the account is at its cap. The cap is checked by the insert itself (one statement), so on SQLite
 * it holds even against another process; on PostgreSQL the caller takes turns per account
 * first (db/engine.ts takeTurns). A prefix collision (8 base62 characters) is astronomically
 * rare; a fresh key settles it. ON CONFLICT, not a caught violation, which would abort the
 * transaction on PostgreSQL.
 */
export async function insertApiKey(
  trx: Transaction<Database>,
  accountId: number,
  createdAt: string,
  { name = null, scopes = null, activeKeyCap }: NewKeyOptions = {},
): Promise<NewApiKeyWithSecret> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const key = generateApiKey();
    const values = {
      account_id: sql<number>`${accountId}`.as('account_id'),
      prefix: sql<string>`${keyPrefix(key)}`.as('prefix'),
      key_hash: sql<string>`${hashApiKey(key)}`.as('key_hash'),
      created_at: sql<string>`${createdAt}`.as('created_at'),
      name: sql<string | null>`${name}`.as('name'),
      scopes: sql<string | null>`${scopes === null ? null : scopes.join(' ')}`.as('scopes'),
    };
    const row = await trx
      .insertInto('api_keys')
      .columns(['account_id', 'prefix', 'key_hash', 'created_at', 'name', 'scopes'])
      .expression(
        trx
          .selectNoFrom(Object.values(values))
          .$if(activeKeyCap !== undefined, (qb) => qb.where(activeKeys(trx, accountId), '<', activeKeyCap ?? 0)),
      )
      .onConflict((oc) => oc.doNothing())
      .returning(['id', 'prefix'])
      .executeTakeFirst();
    if (row)
      return {
        id: row.id,
        prefix: row.prefix,
        name,
        scopes: scopes === null ? null : [...scopes],
        createdAt,
        lastUsedAt: null,
        revokedAt: null,
        key,
      };
    if (activeKeyCap !== undefined && Number((await activeKeys(trx, accountId).executeTakeFirstOrThrow()).n) >= activeKeyCap) {
      throw AppError.of('API_KEY_LIMIT_REACHED', 'atCap', { cap: activeKeyCap });
    }
  }
  throw new Error('could not draw an unused API key');
}

/**
 * The operator's way (CLI): a key for the account, creating the account when it is new. No cap:
 * the operator decides. A token subject's account (its name made by the server) takes keys too,
 * but is never made here.
 */
export async function createApiKey(
  db: Kysely<Database>,
  accountName: string,
  { scopes = null }: { scopes?: readonly Scope[] | null } = {},
): Promise<CreatedApiKey> {
  const subjects = SUBJECT_ACCOUNT_NAME_PATTERN.test(accountName);
  if (!subjects && !ACCOUNT_NAME_PATTERN.test(accountName))
    throw AppError.of('VALIDATION_FAILED', 'accountName', { rule: ACCOUNT_NAME_RULE });
  const createdAt = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    if (!subjects) {
      await trx
        .insertInto('accounts')
        .values({ name: accountName, created_at: createdAt })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    }
    const account = await trx.selectFrom('accounts').select('id').where('name', '=', accountName).executeTakeFirst();
    if (!account) throw AppError.of('ACCOUNT_NOT_FOUND', 'byName', { name: accountName });
    return { ...(await insertApiKey(trx, account.id, createdAt, { scopes })), account: accountName };
  });
}
