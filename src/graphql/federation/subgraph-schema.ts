import { buildSubgraphSchema } from '@apollo/subgraph';
import { concatAST, isObjectType, Kind, parse, visit } from 'graphql';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { AppError } from '../../errors/index.ts';
import type { Reads } from '../resolvers/reading.ts';
import { ENTITY_TYPES, entityResolvers } from './entity-resolvers.ts';

/**
 * Apollo Federation 2.9: the first to carry the cost specification's @cost and @listSize, which
 * the SDL already writes (schema/cost.graphql), so gateways and composers keep them.
 */
const LINK = parse(`extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@cost", "@listSize"])`);

/** The SDL with `@key(fields: "id")` on each entity type. */
function withEntityKeys(typeDefs: DocumentNode): DocumentNode {
  const entities = new Set<string>(ENTITY_TYPES);
  return visit(typeDefs, {
    ObjectTypeDefinition(node) {
      if (!entities.has(node.name.value)) return undefined;
      const key = {
        kind: Kind.DIRECTIVE,
        name: { kind: Kind.NAME, value: 'key' },
        arguments: [{ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: 'fields' }, value: { kind: Kind.STRING, value: 'id' } }],
      } as const;
      return { ...node, directives: [...(node.directives ?? []), key] };
    },
  });
}

type FieldResolvers = Record<string, unknown>;

/** Whether a reference names an entity type of this subgraph: anything else Apollo's resolver throws on, for the whole batch. */
function isReference(value: unknown): value is { __typename: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const typename = (value as { __typename?: unknown }).__typename;
  return typeof typename === 'string' && (ENTITY_TYPES as readonly string[]).includes(typename);
}

/**
 * `_entities` as one promise of its list, each reference that failed in its place as its error:
 * Apollo's resolver returns a list of promises, of which graphql-jit drops the rejected ones at
 * the end (the list came out shorter than the references sent); the stock executor's answer,
 * whole. A reference that is not one (a string, no `__typename`, a type that is not an entity
 * here) is VALIDATION_FAILED in its place, before Apollo's resolver, which would fail the batch.
 */
function settleEntities(schema: GraphQLSchema): void {
  const field = schema.getQueryType()?.getFields()._entities;
  const resolve = field?.resolve;
  if (!field || !resolve) return;
  field.resolve = async (source, args: { representations?: unknown }, context, info) => {
    const sent = Array.isArray(args.representations) ? (args.representations as unknown[]) : [args.representations];
    const references = sent.filter(isReference);
    const items =
      references.length > 0 ? ((await resolve(source, { ...args, representations: references }, context, info)) as unknown[]) : [];
    const settled = await Promise.allSettled(items);
    let next = 0;
    return sent.map((reference) => {
      if (!isReference(reference)) return AppError.of('VALIDATION_FAILED', 'graphqlNotAReference', { types: ENTITY_TYPES.join(' or ') });
      const item = settled[next++];
      return item?.status === 'fulfilled' ? item.value : toError(item?.reason);
    });
  };
}

const toError = (reason: unknown): Error => (reason instanceof Error ? reason : new Error(String(reason)));

/**
 * The executable schema as an Apollo Federation v2 subgraph (GRAPHQL_FEDERATION): the same SDL
 * and resolvers, with Pet and Order as entities, `_service { sdl }` and `_entities`. Apollo's
 * builder keeps a resolver's function, not the rest of its object: what each field declares
 * (what it reads, resolvers/reading.ts; the scope it needs, resolvers/needing.ts) is carried over
 * here, and the two federation fields declare what they read.
 */
export function subgraphSchema(typeDefs: readonly string[], resolvers: Record<string, unknown>): GraphQLSchema {
  const sdl = withEntityKeys(concatAST(typeDefs.map((text) => parse(text))));
  const withReferences: Record<string, unknown> = { ...resolvers };
  for (const [type, resolveReference] of Object.entries(entityResolvers)) {
    withReferences[type] = { ...(resolvers[type] as object | undefined), ...resolveReference };
  }
  // Apollo's resolver map type knows nothing of codegen's; the shapes are the same.
  const schema = buildSubgraphSchema([{ typeDefs: concatAST([LINK, sdl]), resolvers: withReferences as never }]);
  const declare = (typeName: string, fieldName: string, extensions: object) => {
    const type = schema.getType(typeName);
    const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
    if (field) field.extensions = { ...field.extensions, ...extensions };
  };
  for (const [typeName, fields] of Object.entries(resolvers)) {
    if (typeof fields !== 'object' || fields === null) continue;
    for (const [fieldName, config] of Object.entries(fields as FieldResolvers)) {
      const extensions = (config as { extensions?: object } | undefined)?.extensions;
      if (extensions) declare(typeName, fieldName, extensions);
    }
  }
  // The schema's own text, the same for every caller; entities of either kind.
  declare('Query', '_service', { reads: [] satisfies Reads });
  declare('Query', '_entities', { reads: ['orders', 'pets'] satisfies Reads });
  settleEntities(schema);
  return schema;
}
