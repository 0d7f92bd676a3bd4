import { hash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { inTransaction } from '../../db/in-transaction.ts';
import type { Database } from '../../db/types.ts';

/** The account an issuer's subject names, and whether it may be used. */
export interface SubjectAccount {
  accountId: number;
  disabled: boolean;
}

const find = (db: Kysely<Database>, issuer: string, subject: string) =>
  db
    .selectFrom('account_identities')
    .innerJoin('accounts', 'accounts.id', 'account_identities.account_id')
    .select(['accounts.id', 'accounts.disabled_at'])
    .where('account_identities.issuer', '=', issuer)
    .where('account_identities.subject', '=', subject)
    .executeTakeFirst();

/**
 * An account name for a subject that has none yet: readable where the subject is (an e-mail
 * address, a user name), unique by a hash of the issuer and subject, and within the account-name
 * rule (letters, digits, `.`, `_`, `-`; 64 at most; starting with a letter or digit).
 */
function accountNameFor(issuer: string, subject: string): string {
  const readable = subject
    .replace(/[^A-Za-z0-9._-]+/g, '.')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 40);
  return `${readable || 'user'}-${hash('sha256', `${issuer}\n${subject}`, 'hex').slice(0, 10)}`;
}

/**
 * The account an access token's subject belongs to (account_identities), or null when it has
 * none and `create` is off. With `create`, a subject seen for the first time gets an account of
 * its own, as sign-up would make one (without a key: the token is its credential); two first
 * requests racing settle on one account, the one whose identity row was inserted.
 */
export async function accountForSubject(
  db: Kysely<Database>,
  issuer: string,
  subject: string,
  { create }: { create: boolean },
): Promise<SubjectAccount | null> {
  const found = await find(db, issuer, subject);
  if (found) return { accountId: found.id, disabled: found.disabled_at !== null };
  if (!create) return null;
  const createdAt = new Date().toISOString();
  return inTransaction(db, async (trx) => {
    const again = await find(trx, issuer, subject);
    if (again) return { accountId: again.id, disabled: again.disabled_at !== null };
    // The name is the subject's own: a conflict is another request making this very account (on
    // PostgreSQL the insert waits for it to commit), so its identity is there to read.
    const account = await trx
      .insertInto('accounts')
      .values({ name: accountNameFor(issuer, subject), created_at: createdAt })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!account) {
      const made = await find(trx, issuer, subject);
      if (!made) throw new Error(`the account name for ${issuer}'s subject is taken by another account`);
      return { accountId: made.id, disabled: made.disabled_at !== null };
    }
    await trx.insertInto('account_identities').values({ issuer, subject, account_id: account.id, created_at: createdAt }).execute();
    return { accountId: account.id, disabled: false };
  });
}
