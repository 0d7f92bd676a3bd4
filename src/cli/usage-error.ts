/** The command line itself is wrong: print usage and exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
