import type { FieldNaming } from '../services/validation/describe-issue.ts';

/** How GraphQL names a service field in messages: as the argument the client wrote. */
export function argumentNaming(renames: Readonly<Record<string, string>> = {}): FieldNaming {
  return (field) => `Argument '${renames[field] ?? field}'`;
}

/** A list's `first` and `after` are the service's `limit` and `cursor`. */
export const LIST_ARGUMENTS = argumentNaming({ limit: 'first', cursor: 'after' });
