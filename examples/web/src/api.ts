import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

/** A document the client preset made: typed, with the hash the server's trusted-documents manifest knows it by. */
type TrustedDocument<Result, Variables> = TypedDocumentNode<Result, Variables> & { __meta__?: { hash?: string } };

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

interface GraphQLResponse<Result> {
  data?: Result | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

const KEY_STORAGE = 'petstore-key';
const TOKEN_STORAGE = 'petstore-access-token';
const WHO_STORAGE = 'petstore-signed-in';
// A pasted key is kept across visits; a signed-in person's access token only for this tab's session.
let bearer = sessionStorage.getItem(TOKEN_STORAGE) ?? localStorage.getItem(KEY_STORAGE) ?? '';

export function setApiKey(key: string): void {
  bearer = key.trim();
  localStorage.setItem(KEY_STORAGE, bearer);
}

/** Who is signed in: the name to show, and the ID token that ends their session at the issuer. */
export interface Who {
  name: string;
  idToken: string | null;
}

/** The access token of the person signed in (sign-in.ts), sent as the key would be, and who they are. */
export function setAccessToken(token: string, who: Who): void {
  bearer = token;
  sessionStorage.setItem(TOKEN_STORAGE, token);
  sessionStorage.setItem(WHO_STORAGE, JSON.stringify(who));
}

/** Who is signed in in this tab, or null. */
export function signedIn(): Who | null {
  const who = sessionStorage.getItem(WHO_STORAGE);
  return who && bearer !== '' ? (JSON.parse(who) as Who) : null;
}

/** Forgets the signed-in person (they signed out, or their token ran out): the page offers sign-in again. */
export function signOut(): void {
  bearer = '';
  sessionStorage.removeItem(TOKEN_STORAGE);
  sessionStorage.removeItem(WHO_STORAGE);
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'UNAUTHORIZED';
}

export function hasApiKey(): boolean {
  return bearer !== '';
}

/** What to tell a person about an error: the server's own words, or what to do when the server does not know this page. */
export function explain(error: unknown): string {
  if (error instanceof ApiError && error.code === 'UNKNOWN_DOCUMENT') {
    return "The server does not know this page's operations: start it with GRAPHQL_TRUSTED_DOCUMENTS=examples/web/src/__generated__/persisted-documents.json (see examples/web/README.md).";
  }
  return error instanceof Error ? error.message : String(error);
}

/** Only the document's id goes over the wire: the server runs the document it trusts under that id. */
function request<Result, Variables>(document: TrustedDocument<Result, Variables>, variables: Variables, accept: string): RequestInit {
  // `sha256:<hex>`, as GraphQL over HTTP's documentId has it.
  const hash = document.__meta__?.hash;
  if (!hash) throw new Error('This document has no hash: run npm run codegen.');
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ documentId: hash, variables }),
  };
}

function unwrap<Result>(response: GraphQLResponse<Result>): Result {
  const [error] = response.errors ?? [];
  if (error) throw new ApiError(error.message, error.extensions?.code);
  if (!response.data) throw new ApiError('The server sent no data.', undefined);
  return response.data;
}

/** A query or mutation. */
export async function run<Result, Variables>(document: TrustedDocument<Result, Variables>, variables: Variables): Promise<Result> {
  const res = await fetch('/graphql', request(document, variables, 'application/graphql-response+json, application/json'));
  return unwrap((await res.json()) as GraphQLResponse<Result>);
}

/**
 * A subscription over Server-Sent Events, read with fetch (EventSource cannot send the
 * Authorization header): each `next` event's data, until the server sends `complete`.
 */
export async function* subscribe<Result, Variables>(
  document: TrustedDocument<Result, Variables>,
  variables: Variables,
  signal?: AbortSignal,
): AsyncGenerator<Result> {
  const res = await fetch('/graphql', { ...request(document, variables, 'text/event-stream'), signal });
  if (!res.body) throw new ApiError(`The server answered ${res.status} without a stream.`, undefined);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      if (event === 'complete') return;
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event === 'next' && data) yield unwrap(JSON.parse(data) as GraphQLResponse<Result>);
    }
  }
}
