import { graphql } from './__generated__/gql';

// Every operation this front end sends. codegen types each one and lists it in the
// trusted-documents manifest; the page sends only its hash.

export const PetsPage = graphql(`
  query PetsPage($first: Int, $after: String, $last: Int, $before: String, $status: PetStatus) {
    pets(first: $first, after: $after, last: $last, before: $before, status: $status) {
      nodes {
        id
        name
        categoryId
        status
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
    }
  }
`);

export const CreatePet = graphql(`
  mutation CreatePet($input: NewPetInput!) {
    createPet(input: $input) {
      id
      name
      status
    }
  }
`);

export const MyOrders = graphql(`
  query MyOrders {
    orders(last: 20) {
      nodes {
        id
        status
        complete
        pet {
          id
          name
          status
        }
      }
    }
  }
`);

export const PlaceOrder = graphql(`
  mutation PlaceOrder($petId: ID!) {
    placeOrder(input: { petId: $petId }) {
      id
      status
    }
  }
`);

export const AdvanceOrder = graphql(`
  mutation AdvanceOrder($id: ID!, $status: OrderStatus!) {
    advanceOrder(id: $id, status: $status) {
      id
      status
      complete
    }
  }
`);

export const SendMessage = graphql(`
  mutation SendMessage($message: String!) {
    sendMessage(message: $message) {
      id
      status
    }
  }
`);

export const MessageUpdated = graphql(`
  subscription MessageUpdated($id: ID!) {
    messageUpdated(id: $id) {
      id
      status
      attempts
    }
  }
`);
