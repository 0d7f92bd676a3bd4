import { Kind } from 'graphql';
import type { DocumentNode, FragmentDefinitionNode, SelectionSetNode } from 'graphql';
import { AppError } from '../errors/index.ts';
import { GRAPHQL_LIMITS } from './graphql-limits.ts';

interface Measure {
  depth: number;
  aliases: number;
  directives: number;
}

const NOTHING: Measure = { depth: 0, aliases: 0, directives: 0 };
/** Introspection nests deeply by design (a type reference is seven levels); graphql-js bounds it on its own (MaxIntrospectionDepthRule). */
const INTROSPECTION = new Set(['__schema', '__type']);

/**
 * The first limit an operation of `document` is over, as the error to answer with; null when
 * every operation is within them all. One walk, linear in the document: each fragment is
 * measured once and its measure reused at each spread (counts add up per spread, as the work
 * they stand for does). A fragment that spreads itself, directly or not, is refused here, so
 * no later walk can loop.
 */
export function limitViolation(document: DocumentNode): AppError | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const measured = new Map<string, Measure | 'measuring'>();

  function fragment(name: string): Measure {
    const known = measured.get(name);
    if (known === 'measuring') throw AppError.of('VALIDATION_FAILED', 'graphqlFragmentCycle', { fragment: name });
    if (known) return known;
    const definition = fragments.get(name);
    // An unknown fragment is validation's to report.
    if (!definition) return NOTHING;
    measured.set(name, 'measuring');
    const inner = selections(definition.selectionSet);
    const measure = { ...inner, directives: inner.directives + (definition.directives?.length ?? 0) };
    measured.set(name, measure);
    return measure;
  }

  function selections(set: SelectionSetNode): Measure {
    let depth = 0;
    let aliases = 0;
    let directives = 0;
    for (const selection of set.selections) {
      directives += selection.directives?.length ?? 0;
      let inner: Measure;
      if (selection.kind === Kind.FRAGMENT_SPREAD) inner = fragment(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) inner = selections(selection.selectionSet);
      else {
        if (selection.alias) aliases++;
        inner = selection.selectionSet ? selections(selection.selectionSet) : NOTHING;
        if (INTROSPECTION.has(selection.name.value)) inner = { ...inner, depth: 0 };
      }
      depth = Math.max(depth, 1 + inner.depth);
      aliases += inner.aliases;
      directives += inner.directives;
    }
    return { depth, aliases, directives };
  }

  try {
    // Every fragment, used or not: a cycle is refused wherever it is.
    for (const name of fragments.keys()) fragment(name);
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      const measure = selections(definition.selectionSet);
      const directives = measure.directives + (definition.directives?.length ?? 0);
      if (measure.depth > GRAPHQL_LIMITS.maxDepth) {
        return AppError.of('QUERY_TOO_COMPLEX', 'graphqlDepth', { depth: measure.depth, max: GRAPHQL_LIMITS.maxDepth });
      }
      if (measure.aliases > GRAPHQL_LIMITS.maxAliases) {
        return AppError.of('QUERY_TOO_COMPLEX', 'graphqlAliases', { count: count(measure.aliases), max: GRAPHQL_LIMITS.maxAliases });
      }
      if (directives > GRAPHQL_LIMITS.maxDirectives) {
        return AppError.of('QUERY_TOO_COMPLEX', 'graphqlDirectives', { count: count(directives), max: GRAPHQL_LIMITS.maxDirectives });
      }
    }
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** Counts through spreads can pass 2^53: say so rather than print a float. */
function count(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : 'more than 2^53';
}
