import type { GraphQLSchema } from 'graphql';
import { recordSelection } from './record-selection.ts';

/**
 * The tools a server without a trusted-document manifest offers: the contract's operations, as
 * GraphQL documents, each query and mutation a tool named after it, each subscription something
 * an agent listens to (event-sources in tool-catalogue.ts). The comment above an operation is
 * the tool's description, as it would be in a manifest. A pet or an order is selected as its
 * whole record, read from the schema (record-selection.ts), so an agent reads what a REST client
 * would, and a field added to the type reaches the tools with nothing to edit here.
 */
export function defaultDocuments(schema: GraphQLSchema): string {
  const pet = recordSelection(schema, 'Pet');
  const order = recordSelection(schema, 'Order');
  return `
# List the store's pets in ascending id order, a page at a time (first: 1-100, default 20), optionally only those of one status. For the next page pass pageInfo.endCursor as after.
query list_pets($first: Int, $after: String, $status: PetStatus) {
  pets(first: $first, after: $after, status: $status) {
    nodes ${pet}
    pageInfo { hasNextPage endCursor }
  }
}

# Get one pet by its id; PET_NOT_FOUND when there is none.
query get_pet($id: ID!) {
  pet(id: $id) ${pet}
}

# Add a pet to the store; it is available unless a status is given. Answers the pet as stored, with its new id.
mutation add_pet($name: String!, $categoryId: SafeInt!, $status: PetStatus) {
  createPet(input: { name: $name, categoryId: $categoryId, status: $status }) ${pet}
}

# Send a message (the quickstart exchange): it is queued, then delivered; get_message follows its status.
mutation send_message($message: String!) {
  sendMessage(message: $message) { id message status createdAt }
}

# Get one of your messages by id, to follow its delivery.
query get_message($id: ID!) {
  message(id: $id) { id message status attempts failureReason createdAt updatedAt }
}

# List your store orders in ascending id order, a page at a time, optionally only those of one status (experimental).
query list_orders($first: Int, $after: String, $status: OrderStatus) {
  orders(first: $first, after: $after, status: $status) {
    nodes ${order}
    pageInfo { hasNextPage endCursor }
  }
}

# Order an available pet (experimental): the pet becomes pending; PET_NOT_AVAILABLE when someone else was first.
mutation place_order($petId: ID!, $quantity: Int, $shipDate: DateTime) {
  placeOrder(input: { petId: $petId, quantity: $quantity, shipDate: $shipDate }) ${order}
}

# Move one of your orders one step forward: placed → approved → delivered (experimental). Delivery sells the pet.
mutation advance_order($id: ID!, $status: OrderStatus!) {
  advanceOrder(id: $id, status: $status) ${order}
}

# Each pet added to the store from now on, optionally only those of one status.
subscription pet_created($status: PetStatus) {
  petCreated(status: $status) ${pet}
}

# One of your messages as it is now, then each change of its delivery, until it is sent or failed.
subscription message_updated($id: ID!) {
  messageUpdated(id: $id) { id message status attempts failureReason createdAt updatedAt }
}

# Cancel one of your orders before delivery (experimental): it is removed and its pet is available again.
mutation cancel_order($id: ID!) {
  cancelOrder(id: $id) { cancelledOrderId }
}
`;
}
