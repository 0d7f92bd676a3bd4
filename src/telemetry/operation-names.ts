import { Kind, parse } from 'graphql';

/** The label of an operation without a name. */
export const ANONYMOUS = '(anonymous)';
/** The label of every name that has no label of its own (yet). */
export const OTHER = '(other)';

/** Runs a name needs before it takes a label of its own: a name sent once, or a few times, never does. */
export const RUNS_BEFORE_LABEL = 5;
/** Names still counting their runs; past this many, the count starts over. */
const CANDIDATES = 10_000;

export interface OperationNamesOptions {
  /** The most names that get labels of their own, besides `known`. */
  max: number;
  /** Names labeled from the start: the trusted documents' operations, the ones the deployment's clients run. */
  known?: Iterable<string>;
}

/**
 * GraphQL operation names as metric labels, bounded: clients choose the names, and every new
 * one is a new series in Prometheus. The trusted documents' names have their labels from the
 * start; any other name earns one after RUNS_BEFORE_LABEL runs, while fewer than `max` have,
 * and keeps it. So a flood of made-up names, each sent a few times, takes no label and pushes
 * no real operation into `(other)`: the operations a deployment runs are the ones run often.
 * Runs before a name's label count as `(other)`.
 */
export function operationNames({ max, known = [] }: OperationNamesOptions): {
  label(name: string | undefined): string;
  /** More names labeled from now on (a reloaded manifest's), outside `max` as `known` is. */
  know(names: Iterable<string>): void;
} {
  const labeled = new Set<string>(known);
  let earned = 0;
  const runs = new Map<string, number>();
  return {
    label(name) {
      if (!name) return ANONYMOUS;
      if (labeled.has(name)) return name;
      if (earned >= max) return OTHER;
      const count = (runs.get(name) ?? 0) + 1;
      if (count < RUNS_BEFORE_LABEL) {
        if (runs.size >= CANDIDATES) runs.clear();
        runs.set(name, count);
        return OTHER;
      }
      runs.delete(name);
      labeled.add(name);
      earned++;
      return name;
    },
    know(names) {
      for (const name of names) labeled.add(name);
    },
  };
}

/** The names of the trusted documents' operations: the manifest's, at start and after each reload. */
export function operationNamesIn(documents: ReadonlyMap<string, string> | null): string[] {
  const names: string[] = [];
  for (const document of documents?.values() ?? []) {
    let definitions;
    try {
      ({ definitions } = parse(document));
    } catch {
      // Refused when a client runs it, as any document that does not parse.
      continue;
    }
    for (const definition of definitions) {
      if (definition.kind === Kind.OPERATION_DEFINITION && definition.name) names.push(definition.name.value);
    }
  }
  return names;
}
