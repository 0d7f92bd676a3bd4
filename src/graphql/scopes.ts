import { defaultFieldResolver, getNamedType, getOperationAST, isCompositeType, isInterfaceType, isObjectType, Kind } from 'graphql';
import type {
  DocumentNode,
  GraphQLCompositeType,
  GraphQLFieldConfig,
  GraphQLObjectType,
  GraphQLResolveInfo,
  GraphQLSchema,
  SelectionSetNode,
} from 'graphql';
import { AppError } from '../errors/index.ts';
import type { Scope } from '../services/access-tokens/scopes.ts';
import { permits } from '../services/principal.ts';
import type { Principal } from '../services/principal.ts';
import type { GraphQLContext } from './context.ts';
import { isRecordField } from '../util/record-field.ts';
import { readsOf } from './resolvers/reading.ts';

type Field = ReturnType<GraphQLObjectType['getFields']>[string] & Pick<GraphQLFieldConfig<unknown, GraphQLContext>, 'subscribe'>;

/** Refuses a caller whose credential lacks `scope`: a field error (INSUFFICIENT_SCOPE, 403) where the field is. */
function check(context: GraphQLContext, scope: Scope): void {
  // No principal: only introspection runs without one (checks/require-key.ts).
  if (context.principal && !permits(context.principal, scope)) throw AppError.of('INSUFFICIENT_SCOPE', 'missing', { scope });
}

/** The scope a field declares (after withScopes: every field that needs one), or none. */
const scopeOf = (field: { extensions: unknown }): Scope | undefined => (field.extensions as { scope?: Scope } | undefined)?.scope;

/** Whether `info`'s field is on the record (or a list of records) a root field answers: a write's, or the keys' list. */
function onTheAnsweredRecord(info: GraphQLResolveInfo): boolean {
  let above = info.path.prev;
  while (above !== undefined && typeof above.key === 'number') above = above.prev;
  return above !== undefined && above.prev === undefined;
}

/** Makes `field` ask for `scope` whenever it runs (and subscribes), and says so in its extensions. */
function guard(field: Field, scope: Scope, root: boolean): void {
  const { resolve = defaultFieldResolver, subscribe } = field;
  field.extensions = { ...field.extensions, scope };
  // A root field answers its record whole, as REST's route does (a write its 201, the keys'
  // list every key): a field of the record it answers needs no more than the root field did.
  const recordField = !root && isRecordField(field);
  field.resolve = (source, args, context: GraphQLContext, info) => {
    if (!(recordField && onTheAnsweredRecord(info))) check(context, scope);
    return resolve(source, args, context, info);
  };
  if (subscribe) {
    field.subscribe = (source, args, context: GraphQLContext, info) => {
      check(context, scope);
      return subscribe(source, args, context, info);
    };
  }
}

/**
 * Every field that reaches data asks for the scope it needs when it runs. A root field: its own
 * (resolvers/needing.ts), else reading for queries and subscriptions and writing for mutations.
 * Any other field that reads beyond its parent's record (it declares tables it reads,
 * resolvers/reading.ts: `Pet.orders`, `Order.pet`, a count; or has a resolver that declares
 * nothing): reading, wherever it is reached, except a field of the record a root field answers
 * (util/record-field.ts): a write's answer is its own record whole (as REST's 201 is), and reads through
 * it (relations, other records) need petstore:read. A field refused is that field's error, the rest of the operation answered as
 * GraphQL's nulls allow, as REST refuses one route (403). Keys and tokens without scopes (null)
 * may do everything. Done once to the schema, so both executors (graphql-jit, the stock one) and
 * every transport run the same check; `operationScopes` reads the same declarations.
 */
export function withScopes(schema: GraphQLSchema): GraphQLSchema {
  const roots = new Map<GraphQLObjectType | null | undefined, Scope>([
    [schema.getQueryType(), 'petstore:read'],
    [schema.getMutationType(), 'petstore:write'],
    [schema.getSubscriptionType(), 'petstore:read'],
  ]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const byDefault = roots.get(type);
    for (const field of Object.values(type.getFields()) as Field[]) {
      if (field.name.startsWith('__')) continue;
      const reads = readsOf(field);
      // A resolver that declared nothing (reads undefined) may read anything: guarded as one that
      // reads, so a forgotten reading(…) costs a refusal, never a read without the scope.
      const reaches = byDefault !== undefined || reads === undefined || reads === 'uncacheable' || reads.length > 0;
      if (reaches) guard(field, scopeOf(field) ?? byDefault ?? 'petstore:read', byDefault !== undefined);
    }
  }
  return schema;
}

/**
 * The scopes an operation's fields need, fragments included (each walked once): what a
 * credential must carry for none of its fields to be refused. Linear in the document.
 */
export function operationScopes(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): ReadonlySet<Scope> {
  const needed = new Set<Scope>();
  const operation = getOperationAST(document, operationName);
  const root = operation
    ? { query: schema.getQueryType(), mutation: schema.getMutationType(), subscription: schema.getSubscriptionType() }[operation.operation]
    : null;
  if (!operation || !root) return needed;
  const fragments = new Map(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition]] : [],
    ),
  );
  const walked = new Set<string>();
  // `answered`: the selection is on the record a root field answers (see guard).
  const walk = (selectionSet: SelectionSetNode, type: GraphQLCompositeType, answered: boolean): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!isObjectType(type) && !isInterfaceType(type)) continue;
        const field = type.getFields()[selection.name.value];
        if (!field) continue;
        const scope = scopeOf(field);
        if (scope && !(answered && isRecordField(field))) needed.add(scope);
        const named = getNamedType(field.type);
        if (selection.selectionSet && isCompositeType(named)) walk(selection.selectionSet, named, type === root);
        continue;
      }
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
      if (!fragment) continue;
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        // A fragment's fields need the same scopes wherever it is spread in the same place: once is enough.
        const place = `${selection.name.value}:${String(answered)}`;
        if (walked.has(place)) continue;
        walked.add(place);
      }
      const on = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : type;
      if (on && isCompositeType(on)) walk(fragment.selectionSet, on, answered);
    }
  };
  walk(operation.selectionSet, root, false);
  return needed;
}

/** The first scope of `needed` the principal's credential lacks, as the refusal to answer with; null when it has them all. */
export function missingScope(principal: Principal, needed: ReadonlySet<Scope>): AppError | null {
  for (const scope of needed) if (!permits(principal, scope)) return AppError.of('INSUFFICIENT_SCOPE', 'missing', { scope });
  return null;
}
