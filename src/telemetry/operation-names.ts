/** The label of an operation without a name. */
export const ANONYMOUS = '(anonymous)';
/** The label of every name seen after the limit was reached. */
export const OTHER = '(other)';

/**
 * GraphQL operation names as metric labels, bounded: clients choose the names, and every new
 * one is a new series in Prometheus. The first `max` distinct names keep their own label (with
 * trusted documents, the manifest's names are all there is); later ones count as `(other)`.
 */
export function operationNames(max: number): { label(name: string | undefined): string } {
  const kept = new Set<string>();
  return {
    label(name) {
      if (!name) return ANONYMOUS;
      if (kept.has(name)) return name;
      if (kept.size >= max) return OTHER;
      kept.add(name);
      return name;
    },
  };
}
