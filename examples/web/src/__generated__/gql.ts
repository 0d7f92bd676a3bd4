/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query PetsPage($first: Int, $after: String, $last: Int, $before: String, $status: PetStatus) {\n    pets(first: $first, after: $after, last: $last, before: $before, status: $status) {\n      nodes {\n        id\n        name\n        categoryId\n        status\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n": typeof types.PetsPageDocument,
    "\n  mutation CreatePet($input: NewPetInput!) {\n    createPet(input: $input) {\n      id\n      name\n      status\n    }\n  }\n": typeof types.CreatePetDocument,
    "\n  query MyOrders {\n    orders(last: 20) {\n      nodes {\n        id\n        status\n        complete\n        pet {\n          id\n          name\n          status\n        }\n      }\n    }\n  }\n": typeof types.MyOrdersDocument,
    "\n  mutation PlaceOrder($petId: ID!) {\n    placeOrder(input: { petId: $petId }) {\n      id\n      status\n    }\n  }\n": typeof types.PlaceOrderDocument,
    "\n  mutation AdvanceOrder($id: ID!, $status: OrderStatus!) {\n    advanceOrder(id: $id, status: $status) {\n      id\n      status\n      complete\n    }\n  }\n": typeof types.AdvanceOrderDocument,
    "\n  mutation SendMessage($message: String!) {\n    sendMessage(message: $message) {\n      id\n      status\n    }\n  }\n": typeof types.SendMessageDocument,
    "\n  subscription MessageUpdated($id: ID!) {\n    messageUpdated(id: $id) {\n      id\n      status\n      attempts\n    }\n  }\n": typeof types.MessageUpdatedDocument,
};
const documents: Documents = {
    "\n  query PetsPage($first: Int, $after: String, $last: Int, $before: String, $status: PetStatus) {\n    pets(first: $first, after: $after, last: $last, before: $before, status: $status) {\n      nodes {\n        id\n        name\n        categoryId\n        status\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n": types.PetsPageDocument,
    "\n  mutation CreatePet($input: NewPetInput!) {\n    createPet(input: $input) {\n      id\n      name\n      status\n    }\n  }\n": types.CreatePetDocument,
    "\n  query MyOrders {\n    orders(last: 20) {\n      nodes {\n        id\n        status\n        complete\n        pet {\n          id\n          name\n          status\n        }\n      }\n    }\n  }\n": types.MyOrdersDocument,
    "\n  mutation PlaceOrder($petId: ID!) {\n    placeOrder(input: { petId: $petId }) {\n      id\n      status\n    }\n  }\n": types.PlaceOrderDocument,
    "\n  mutation AdvanceOrder($id: ID!, $status: OrderStatus!) {\n    advanceOrder(id: $id, status: $status) {\n      id\n      status\n      complete\n    }\n  }\n": types.AdvanceOrderDocument,
    "\n  mutation SendMessage($message: String!) {\n    sendMessage(message: $message) {\n      id\n      status\n    }\n  }\n": types.SendMessageDocument,
    "\n  subscription MessageUpdated($id: ID!) {\n    messageUpdated(id: $id) {\n      id\n      status\n      attempts\n    }\n  }\n": types.MessageUpdatedDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PetsPage($first: Int, $after: String, $last: Int, $before: String, $status: PetStatus) {\n    pets(first: $first, after: $after, last: $last, before: $before, status: $status) {\n      nodes {\n        id\n        name\n        categoryId\n        status\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query PetsPage($first: Int, $after: String, $last: Int, $before: String, $status: PetStatus) {\n    pets(first: $first, after: $after, last: $last, before: $before, status: $status) {\n      nodes {\n        id\n        name\n        categoryId\n        status\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreatePet($input: NewPetInput!) {\n    createPet(input: $input) {\n      id\n      name\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation CreatePet($input: NewPetInput!) {\n    createPet(input: $input) {\n      id\n      name\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyOrders {\n    orders(last: 20) {\n      nodes {\n        id\n        status\n        complete\n        pet {\n          id\n          name\n          status\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query MyOrders {\n    orders(last: 20) {\n      nodes {\n        id\n        status\n        complete\n        pet {\n          id\n          name\n          status\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PlaceOrder($petId: ID!) {\n    placeOrder(input: { petId: $petId }) {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation PlaceOrder($petId: ID!) {\n    placeOrder(input: { petId: $petId }) {\n      id\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdvanceOrder($id: ID!, $status: OrderStatus!) {\n    advanceOrder(id: $id, status: $status) {\n      id\n      status\n      complete\n    }\n  }\n"): (typeof documents)["\n  mutation AdvanceOrder($id: ID!, $status: OrderStatus!) {\n    advanceOrder(id: $id, status: $status) {\n      id\n      status\n      complete\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendMessage($message: String!) {\n    sendMessage(message: $message) {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation SendMessage($message: String!) {\n    sendMessage(message: $message) {\n      id\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription MessageUpdated($id: ID!) {\n    messageUpdated(id: $id) {\n      id\n      status\n      attempts\n    }\n  }\n"): (typeof documents)["\n  subscription MessageUpdated($id: ID!) {\n    messageUpdated(id: $id) {\n      id\n      status\n      attempts\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;