/** What GraphiQL opens with: the contract's four operations, ready to run once a key is set (the docs panel lists the rest). */
export const GRAPHIQL_DEFAULT_QUERY = `# Petstore Gateway: GraphQL
#
# Every operation needs your API key. Open "Headers" below and paste:
#   { "Authorization": "Bearer psk_..." }
# (npx petstore keys create --account me prints one). The docs panel works without a key.
#
# Pick an operation with the play button.

query ListPets($after: String) {
  pets(first: 5, status: available, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { id name categoryId status }
  }
}

mutation CreatePet {
  createPet(input: { name: "Rex", categoryId: 3 }) { id name categoryId status }
}

# Deprecated (removed on 2030-12-05): use pets(status:) instead.
query GetPet {
  pet(id: "1") { id name categoryId status }
}

mutation SendMessage {
  sendMessage(message: "Hello") { id message status createdAt }
}
`;
