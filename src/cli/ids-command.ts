import { parseArgs } from 'node:util';
import type { OpenDatabase } from '../db/connection.ts';
import { table } from './table.ts';
import { UsageError } from './usage-error.ts';

/** How far past anything handed out, by default: a day of 10 writes a second to one table, with room to spare. */
const DEFAULT_BY = 1_000_000;

/**
 * `petstore ids advance [--by N]`: the step after promoting an asynchronous standby
 * (docs/deployment.md, Failover): no id a client was told by the old primary is handed to
 * another record by the new one.
 */
export async function idsCommand(database: OpenDatabase, args: string[], out: (line: string) => void): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'advance') throw new UsageError(sub ? `unknown ids command '${sub}'` : 'ids needs a command: advance');
  const { values } = parseArgs({ args: rest, options: { by: { type: 'string' } }, strict: true, allowPositionals: false });
  const by = values.by === undefined ? DEFAULT_BY : Number(values.by);
  if (!Number.isSafeInteger(by) || by < 1) throw new UsageError(`--by must be a whole number of ids, 1 or more (got '${values.by}')`);
  const advanced = await database.advanceIds(by);
  out(table([['TABLE', 'NEXT ID WAS', 'NEXT ID NOW'], ...advanced.map((row) => [row.table, String(row.from), String(row.to)])]));
  out(`Advanced ${advanced.length} id sequence(s) by ${by} past the highest id each had given or stored.`);
}
