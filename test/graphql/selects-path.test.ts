import { Kind, parse } from 'graphql';
import type { FieldNode, FragmentDefinitionNode, OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { selectsPath } from '../../src/graphql/resolvers/selects-path.ts';

/** The info selectsPath reads for the first root field of `query`. */
function infoOf(query: string) {
  const document = parse(query);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const fragments = Object.fromEntries(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  return { fieldNodes: [operation?.selectionSet.selections[0] as FieldNode], fragments };
}

describe('selectsPath', () => {
  it('finds a path below the field, directly, through inline fragments and through spreads', () => {
    expect(selectsPath(infoOf('{ orders { nodes { pet { id } } } }'), ['nodes', 'pet'])).toBe(true);
    expect(selectsPath(infoOf('{ orders { nodes { ... on Order { pet { id } } } } }'), ['nodes', 'pet'])).toBe(true);
    expect(selectsPath(infoOf('{ orders { edges { node { ...P } } } } fragment P on Order { pet { id } }'), ['edges', 'node', 'pet'])).toBe(
      true,
    );
  });

  it('does not find a path the field does not select, or one only partly there', () => {
    expect(selectsPath(infoOf('{ orders { nodes { id petId } } }'), ['nodes', 'pet'])).toBe(false);
    expect(selectsPath(infoOf('{ orders { edges { cursor } } }'), ['edges', 'node', 'pet'])).toBe(false);
    expect(selectsPath(infoOf('{ orders { nodes { ...Missing } } }'), ['nodes', 'pet'])).toBe(false);
  });

  it('errs towards yes under @skip: at worst a relation is read and not shown', () => {
    expect(selectsPath(infoOf('{ orders { nodes { pet @skip(if: true) { id } } } }'), ['nodes', 'pet'])).toBe(true);
  });
});
