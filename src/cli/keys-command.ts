import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import { isScope, SCOPES } from '../services/access-tokens/scopes.ts';
import type { Scope } from '../services/access-tokens/scopes.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys/index.ts';
import { table } from './table.ts';
import { UsageError } from './usage-error.ts';

export async function keysCommand(db: Kysely<Database>, args: string[], out: (line: string) => void): Promise<void> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'create': {
      const { values } = parseArgs({ args: rest, options: { account: { type: 'string' }, scopes: { type: 'string' } }, strict: true });
      if (!values.account) throw new UsageError('keys create needs --account NAME');
      const scopes = values.scopes === undefined ? null : values.scopes.split(',').map((scope) => scope.trim());
      const unknown = scopes?.find((scope) => !isScope(scope));
      if (unknown !== undefined || scopes?.length === 0)
        throw new UsageError(`--scopes takes a comma-separated list of ${SCOPES.join(', ')}`);
      const created = await createApiKey(db, values.account, { scopes: scopes as Scope[] | null });
      const may = created.scopes === null ? '' : ` It may only ${created.scopes.join(', ')}.`;
      out(
        `Created key ${created.id} (${created.prefix}…) for account "${created.account}".${may} It is shown once and cannot be recovered:`,
      );
      out(created.key);
      return;
    }
    case 'list': {
      parseArgs({ args: rest, options: {}, strict: true });
      const keys = await listApiKeys(db);
      if (keys.length === 0) {
        out('No API keys yet. Create one with: petstore keys create --account NAME');
        return;
      }
      out(
        table([
          ['ID', 'PREFIX', 'ACCOUNT', 'CREATED', 'LAST USED', 'REVOKED'],
          ...keys.map((k) => [String(k.id), k.prefix, k.account, k.createdAt, k.lastUsedAt ?? '-', k.revokedAt ?? '-']),
        ]),
      );
      return;
    }
    case 'revoke': {
      const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true, strict: true });
      if (positionals.length !== 1 || !positionals[0]) throw new UsageError('keys revoke needs exactly one key ID (or prefix)');
      const revoked = await revokeApiKey(db, positionals[0]);
      out(
        revoked.alreadyRevoked
          ? `Key ${revoked.id} (${revoked.prefix}…) was already revoked at ${revoked.revokedAt}; nothing changed.`
          : `Revoked key ${revoked.id} (${revoked.prefix}…) at ${revoked.revokedAt}.`,
      );
      return;
    }
    default:
      throw new UsageError(sub ? `unknown keys command '${sub}'` : 'keys needs a command: create, list or revoke');
  }
}
