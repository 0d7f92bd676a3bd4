import type { Kysely } from 'kysely';

// Frozen once landed: change the schema with a new migration, never by editing this one.
// Access tokens from an OpenID Connect issuer name an account by their issuer and subject
// (account_identities); an API key may be limited to some scopes (null: every scope).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_identities')
    .addColumn('issuer', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('account_id', 'bigint', (column) => column.notNull().references('accounts.id'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('account_identities_pkey', ['issuer', 'subject'])
    .execute();
  await db.schema.alterTable('api_keys').addColumn('scopes', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('scopes').execute();
  await db.schema.dropTable('account_identities').execute();
}
