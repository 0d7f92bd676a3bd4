import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { Pet as PetModel, PetPage as PetPageModel } from '../../services/pets/index.ts';
import type { Message as MessageModel } from '../../services/messages/index.ts';
import type { Order as OrderModel, OrderPage as OrderPageModel } from '../../services/orders/index.ts';
import type { PageInfo as PageInfoModel } from '../resolvers/connection.ts';
import type { ApiKey as ApiKeyModel, NewApiKeyWithSecret as NewApiKeyWithSecretModel } from '../../services/api-keys/index.ts';
import type { GraphQLContext } from '../context.ts';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /**
   * An RFC 3339 date-time, e.g. 2026-12-01T10:00:00Z. Inputs may carry any offset and are stored in
   * UTC (years 0000-9999); outputs are UTC with milliseconds, e.g. 2026-11-22T02:30:11.814Z.
   */
  DateTime: { input: string; output: string; }
  /**
   * An integer from -(2^53-1) to 2^53-1, carried exactly (graphql-scalars' SafeInt).
   * Used for int64 fields of the REST contract, which a 32-bit GraphQL Int could not hold.
   * Larger values are rejected with an error, never rounded.
   */
  SafeInt: { input: number; output: number; }
};

/** One of your API keys, without its secret (which is never stored); the same record as REST's /v1/keys. */
export type ApiKey = {
  __typename?: 'ApiKey';
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  /** Last accepted use, written every 10 s; null if never. */
  lastUsedAt?: Maybe<Scalars['DateTime']['output']>;
  /** What you call the key. */
  name?: Maybe<Scalars['String']['output']>;
  /** The public start of the key (psk_ and 8 characters), to recognise it. */
  prefix: Scalars['String']['output'];
  /** When it was revoked; null while it works. */
  revokedAt?: Maybe<Scalars['DateTime']['output']>;
  /** What the key may do (petstore:read, petstore:write, petstore:keys); null: everything. */
  scopes?: Maybe<Array<Scalars['String']['output']>>;
};

/** What cancelOrder leaves: the order is gone, its pet available again. */
export type CancelOrderPayload = {
  __typename?: 'CancelOrderPayload';
  /** The id the cancelled order had. */
  cancelledOrderId: Scalars['ID']['output'];
  /** The pet, available again (read through the operation's batch loader, as Order.pet). */
  pet: Pet;
};

/** A message of the quickstart exchange; the same record as REST's /messages. */
export type Message = {
  __typename?: 'Message';
  /** Delivery attempts made so far. */
  attempts: Scalars['Int']['output'];
  createdAt: Scalars['DateTime']['output'];
  /** The last delivery error; null once sent. */
  failureReason?: Maybe<Scalars['String']['output']>;
  /** msg_<digits> */
  id: Scalars['ID']['output'];
  message: Scalars['String']['output'];
  status: MessageStatus;
  /** When the status or attempts last changed. */
  updatedAt: Scalars['DateTime']['output'];
};

/**
 * queued: accepted, and may not yet be processed; sent: delivered to the transport;
 * failed: given up after bounded retries (see failureReason).
 */
export type MessageStatus =
  | 'failed'
  | 'queued'
  | 'sent';

export type Mutation = {
  __typename?: 'Mutation';
  /**
   * Moves one of your orders one step forward (experimental; REST: PATCH /v1/store/orders/{orderId}):
   * placed → approved → delivered. Delivery completes the order and sells the pet; a skipped or
   * backward step is INVALID_ORDER_TRANSITION.
   */
  advanceOrder: Order;
  /**
   * Cancels one of your orders before delivery (experimental; REST: DELETE /v1/store/orders/{orderId}):
   * the order is removed and its pet is available again. A delivered order is INVALID_ORDER_TRANSITION.
   */
  cancelOrder: CancelOrderPayload;
  /** Another key for your account, at most 10 unrevoked (API_KEY_LIMIT_REACHED). REST: POST /v1/keys. */
  createKey: NewApiKeyWithSecret;
  /** Adds a pet (REST: POST /v1/pets). */
  createPet: Pet;
  /** Orders an available pet (experimental); PET_NOT_AVAILABLE when someone else was first. */
  placeOrder: Order;
  /**
   * Revokes one of your keys, the calling one included: it is refused from the next request on.
   * Another account's key is API_KEY_NOT_FOUND. REST: DELETE /v1/keys/{keyId}.
   */
  revokeKey: ApiKey;
  /** Queues a message (REST: POST /messages). 1-4096 characters. */
  sendMessage: Message;
};


export type MutationAdvanceOrderArgs = {
  id: Scalars['ID']['input'];
  status: OrderStatus;
};


export type MutationCancelOrderArgs = {
  id: Scalars['ID']['input'];
};


export type MutationCreateKeyArgs = {
  input?: InputMaybe<NewApiKeyInput>;
};


export type MutationCreatePetArgs = {
  input: NewPetInput;
};


export type MutationPlaceOrderArgs = {
  input: PlaceOrderInput;
};


export type MutationRevokeKeyArgs = {
  id: Scalars['ID']['input'];
};


export type MutationSendMessageArgs = {
  message: Scalars['String']['input'];
};

export type NewApiKeyInput = {
  /** What you call the key (1-64 characters); optional. */
  name?: InputMaybe<Scalars['String']['input']>;
  /**
   * What the key may do (petstore:read, petstore:write, petstore:keys); optional. Without it, what
   * your credential may do; never more (INSUFFICIENT_SCOPE).
   */
  scopes?: InputMaybe<Array<Scalars['String']['input']>>;
};

/** A key just made: the only answer that carries its secret (`key`). */
export type NewApiKeyWithSecret = {
  __typename?: 'NewApiKeyWithSecret';
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  /** The key itself, psk_ and 40 characters. Shown this once: it is not stored. */
  key: Scalars['String']['output'];
  lastUsedAt?: Maybe<Scalars['DateTime']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  prefix: Scalars['String']['output'];
  revokedAt?: Maybe<Scalars['DateTime']['output']>;
  scopes?: Maybe<Array<Scalars['String']['output']>>;
};

export type NewPetInput = {
  /** A positive integer up to 2^53-1. */
  categoryId: Scalars['SafeInt']['input'];
  /** 1-100 characters, not blank. */
  name: Scalars['String']['input'];
  /** Defaults to available. */
  status?: InputMaybe<PetStatus>;
};

/** A store order (experimental: REST /v1/store/orders). Orders belong to the account that placed them. */
export type Order = {
  __typename?: 'Order';
  /** True once delivered. */
  complete: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
  /** The ordered pet, as it is now. */
  pet: Pet;
  petId: Scalars['ID']['output'];
  quantity: Scalars['Int']['output'];
  shipDate?: Maybe<Scalars['DateTime']['output']>;
  status: OrderStatus;
};

export type OrderConnection = {
  __typename?: 'OrderConnection';
  edges: Array<OrderEdge>;
  nodes: Array<Order>;
  /** Where this page sits; the field itself reads nothing (its flags cost what they read). */
  pageInfo: PageInfo;
  /** Your orders matching the filter; computed only when selected. */
  totalCount: Scalars['Int']['output'];
};

export type OrderEdge = {
  __typename?: 'OrderEdge';
  cursor: Scalars['String']['output'];
  node: Order;
};

/** Order status, forward only: placed → approved → delivered. */
export type OrderStatus =
  | 'approved'
  | 'delivered'
  | 'placed';

/**
 * Where a page sits in its list (Relay's PageInfo). `hasNextPage` and `hasPreviousPage` are exact
 * in both directions; the one that looks behind the cursor you passed costs a query, run only when
 * selected.
 */
export type PageInfo = {
  __typename?: 'PageInfo';
  /** The cursor of the last edge; null on an empty page. */
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  /** The cursor of the first edge; null on an empty page. */
  startCursor?: Maybe<Scalars['String']['output']>;
};

/** An animal of the store's catalogue; the same record as REST's Pet. */
export type Pet = {
  __typename?: 'Pet';
  /** Identifier of the category the animal belongs to (int64; exact up to 2^53-1). */
  categoryId: Scalars['SafeInt']['output'];
  /** Unique identifier assigned on creation (REST's integer id, as a string). */
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  /** Your orders of this pet, oldest first (another account's orders are not shown); [] when none. */
  orders: Array<Order>;
  status: PetStatus;
};

export type PetConnection = {
  __typename?: 'PetConnection';
  edges: Array<PetEdge>;
  nodes: Array<Pet>;
  /** Where this page sits; the field itself reads nothing (its flags cost what they read). */
  pageInfo: PageInfo;
  /** The number of pets matching the filter; computed only when selected. */
  totalCount: Scalars['Int']['output'];
};

export type PetEdge = {
  __typename?: 'PetEdge';
  /** Opaque; the same cursor REST puts in its Link header, usable on either surface. */
  cursor: Scalars['String']['output'];
  node: Pet;
};

/** Availability status of a pet: exactly the values of the REST contract. */
export type PetStatus =
  | 'available'
  | 'pending'
  | 'sold';

export type PlaceOrderInput = {
  /** The pet to order; it must be available, and becomes pending. */
  petId: Scalars['ID']['input'];
  /** 1-100, default 1. */
  quantity?: InputMaybe<Scalars['Int']['input']>;
  shipDate?: InputMaybe<Scalars['DateTime']['input']>;
};

export type Query = {
  __typename?: 'Query';
  /** One of your messages, to follow its delivery; null with MESSAGE_NOT_FOUND. */
  message?: Maybe<Message>;
  /** Your account's keys, revoked ones included, oldest first (REST: GET /v1/keys). */
  myKeys: Array<ApiKey>;
  /** One of your orders, or null with ORDER_NOT_FOUND (experimental). */
  order?: Maybe<Order>;
  /** Your orders in ascending id order (experimental). Same paging rules as pets, both ways. */
  orders: OrderConnection;
  /**
   * One pet by id, or null with a PET_NOT_FOUND error.
   * @deprecated Mirrors REST GET /v1/pets/{petId}, which is removed on 2030-12-05. Use pets(status:) instead.
   */
  pet?: Maybe<Pet>;
  /**
   * Pets in ascending id order, a page at a time. Forward: `first` is 1-100 (default 20), like
   * REST's `limit`; `after` takes an endCursor, or the cursor of a REST Link header. Backward:
   * `last` (1-100) and `before` (a startCursor, or any edge's cursor). Pass one pair, not both.
   */
  pets: PetConnection;
};


export type QueryMessageArgs = {
  id: Scalars['ID']['input'];
};


export type QueryOrderArgs = {
  id: Scalars['ID']['input'];
};


export type QueryOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  status?: InputMaybe<OrderStatus>;
};


export type QueryPetArgs = {
  id: Scalars['ID']['input'];
};


export type QueryPetsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  status?: InputMaybe<PetStatus>;
};

/**
 * Live updates, over Server-Sent Events (GraphQL over SSE, distinct connections): POST the
 * subscription to /graphql with `Accept: text/event-stream` and the same bearer key.
 */
export type Subscription = {
  __typename?: 'Subscription';
  /**
   * One of your messages as it is now, then each change of its status or attempts; the stream
   * ends after a final status (sent or failed). MESSAGE_NOT_FOUND for another account's message.
   */
  messageUpdated: Message;
  /** Each pet created from now on, by anyone, through either face; only those of `status` when given. */
  petCreated: Pet;
};


/**
 * Live updates, over Server-Sent Events (GraphQL over SSE, distinct connections): POST the
 * subscription to /graphql with `Accept: text/event-stream` and the same bearer key.
 */
export type SubscriptionMessageUpdatedArgs = {
  id: Scalars['ID']['input'];
};


/**
 * Live updates, over Server-Sent Events (GraphQL over SSE, distinct connections): POST the
 * subscription to /graphql with `Accept: text/event-stream` and the same bearer key.
 */
export type SubscriptionPetCreatedArgs = {
  status?: InputMaybe<PetStatus>;
};



export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;





/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  ApiKey: ResolverTypeWrapper<ApiKeyModel>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  CancelOrderPayload: ResolverTypeWrapper<OrderModel>;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  Message: ResolverTypeWrapper<MessageModel>;
  MessageStatus: MessageStatus;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  NewApiKeyInput: NewApiKeyInput;
  NewApiKeyWithSecret: ResolverTypeWrapper<NewApiKeyWithSecretModel>;
  NewPetInput: NewPetInput;
  Order: ResolverTypeWrapper<OrderModel>;
  OrderConnection: ResolverTypeWrapper<OrderPageModel>;
  OrderEdge: ResolverTypeWrapper<Omit<OrderEdge, 'node'> & { node: ResolversTypes['Order'] }>;
  OrderStatus: OrderStatus;
  PageInfo: ResolverTypeWrapper<PageInfoModel>;
  Pet: ResolverTypeWrapper<PetModel>;
  PetConnection: ResolverTypeWrapper<PetPageModel>;
  PetEdge: ResolverTypeWrapper<Omit<PetEdge, 'node'> & { node: ResolversTypes['Pet'] }>;
  PetStatus: PetStatus;
  PlaceOrderInput: PlaceOrderInput;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  SafeInt: ResolverTypeWrapper<Scalars['SafeInt']['output']>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  ApiKey: ApiKeyModel;
  Boolean: Scalars['Boolean']['output'];
  CancelOrderPayload: OrderModel;
  DateTime: Scalars['DateTime']['output'];
  ID: Scalars['ID']['output'];
  Int: Scalars['Int']['output'];
  Message: MessageModel;
  Mutation: Record<PropertyKey, never>;
  NewApiKeyInput: NewApiKeyInput;
  NewApiKeyWithSecret: NewApiKeyWithSecretModel;
  NewPetInput: NewPetInput;
  Order: OrderModel;
  OrderConnection: OrderPageModel;
  OrderEdge: Omit<OrderEdge, 'node'> & { node: ResolversParentTypes['Order'] };
  PageInfo: PageInfoModel;
  Pet: PetModel;
  PetConnection: PetPageModel;
  PetEdge: Omit<PetEdge, 'node'> & { node: ResolversParentTypes['Pet'] };
  PlaceOrderInput: PlaceOrderInput;
  Query: Record<PropertyKey, never>;
  SafeInt: Scalars['SafeInt']['output'];
  String: Scalars['String']['output'];
  Subscription: Record<PropertyKey, never>;
};

export type CostDirectiveArgs = {
  weight: Scalars['Int']['input'];
};

export type CostDirectiveResolver<Result, Parent, ContextType = GraphQLContext, Args = CostDirectiveArgs> = DirectiveResolverFn<Result, Parent, ContextType, Args>;

export type ListSizeDirectiveArgs = {
  assumedSize?: Maybe<Scalars['Int']['input']>;
  requireOneSlicingArgument?: Maybe<Scalars['Boolean']['input']>;
  sizedFields?: Maybe<Array<Scalars['String']['input']>>;
  slicingArguments?: Maybe<Array<Scalars['String']['input']>>;
};

export type ListSizeDirectiveResolver<Result, Parent, ContextType = GraphQLContext, Args = ListSizeDirectiveArgs> = DirectiveResolverFn<Result, Parent, ContextType, Args>;

export type McpToolDirectiveArgs = {
  destructiveHint?: Maybe<Scalars['Boolean']['input']>;
  idempotentHint?: Maybe<Scalars['Boolean']['input']>;
  openWorldHint?: Maybe<Scalars['Boolean']['input']>;
  readOnlyHint?: Maybe<Scalars['Boolean']['input']>;
  title?: Maybe<Scalars['String']['input']>;
};

export type McpToolDirectiveResolver<Result, Parent, ContextType = GraphQLContext, Args = McpToolDirectiveArgs> = DirectiveResolverFn<Result, Parent, ContextType, Args>;

export type ApiKeyResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ApiKey'] = ResolversParentTypes['ApiKey']> = {
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lastUsedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  name?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  prefix?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  revokedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  scopes?: Resolver<Maybe<Array<ResolversTypes['String']>>, ParentType, ContextType>;
};

export type CancelOrderPayloadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CancelOrderPayload'] = ResolversParentTypes['CancelOrderPayload']> = {
  cancelledOrderId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  pet?: Resolver<ResolversTypes['Pet'], ParentType, ContextType>;
};

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type MessageResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Message'] = ResolversParentTypes['Message']> = {
  attempts?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  failureReason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['MessageStatus'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
};

export type MutationResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  advanceOrder?: Resolver<ResolversTypes['Order'], ParentType, ContextType, RequireFields<MutationAdvanceOrderArgs, 'id' | 'status'>>;
  cancelOrder?: Resolver<ResolversTypes['CancelOrderPayload'], ParentType, ContextType, RequireFields<MutationCancelOrderArgs, 'id'>>;
  createKey?: Resolver<ResolversTypes['NewApiKeyWithSecret'], ParentType, ContextType, Partial<MutationCreateKeyArgs>>;
  createPet?: Resolver<ResolversTypes['Pet'], ParentType, ContextType, RequireFields<MutationCreatePetArgs, 'input'>>;
  placeOrder?: Resolver<ResolversTypes['Order'], ParentType, ContextType, RequireFields<MutationPlaceOrderArgs, 'input'>>;
  revokeKey?: Resolver<ResolversTypes['ApiKey'], ParentType, ContextType, RequireFields<MutationRevokeKeyArgs, 'id'>>;
  sendMessage?: Resolver<ResolversTypes['Message'], ParentType, ContextType, RequireFields<MutationSendMessageArgs, 'message'>>;
};

export type NewApiKeyWithSecretResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['NewApiKeyWithSecret'] = ResolversParentTypes['NewApiKeyWithSecret']> = {
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  key?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  lastUsedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  name?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  prefix?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  revokedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  scopes?: Resolver<Maybe<Array<ResolversTypes['String']>>, ParentType, ContextType>;
};

export type OrderResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Order'] = ResolversParentTypes['Order']> = {
  complete?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  pet?: Resolver<ResolversTypes['Pet'], ParentType, ContextType>;
  petId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  quantity?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  shipDate?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['OrderStatus'], ParentType, ContextType>;
};

export type OrderConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['OrderConnection'] = ResolversParentTypes['OrderConnection']> = {
  edges?: Resolver<Array<ResolversTypes['OrderEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Order']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type OrderEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['OrderEdge'] = ResolversParentTypes['OrderEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Order'], ParentType, ContextType>;
};

export type PageInfoResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasPreviousPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  startCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PetResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Pet'] = ResolversParentTypes['Pet']> = {
  categoryId?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  orders?: Resolver<Array<ResolversTypes['Order']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['PetStatus'], ParentType, ContextType>;
};

export type PetConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PetConnection'] = ResolversParentTypes['PetConnection']> = {
  edges?: Resolver<Array<ResolversTypes['PetEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Pet']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type PetEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PetEdge'] = ResolversParentTypes['PetEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Pet'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  message?: Resolver<Maybe<ResolversTypes['Message']>, ParentType, ContextType, RequireFields<QueryMessageArgs, 'id'>>;
  myKeys?: Resolver<Array<ResolversTypes['ApiKey']>, ParentType, ContextType>;
  order?: Resolver<Maybe<ResolversTypes['Order']>, ParentType, ContextType, RequireFields<QueryOrderArgs, 'id'>>;
  orders?: Resolver<ResolversTypes['OrderConnection'], ParentType, ContextType, Partial<QueryOrdersArgs>>;
  pet?: Resolver<Maybe<ResolversTypes['Pet']>, ParentType, ContextType, RequireFields<QueryPetArgs, 'id'>>;
  pets?: Resolver<ResolversTypes['PetConnection'], ParentType, ContextType, Partial<QueryPetsArgs>>;
};

export interface SafeIntScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['SafeInt'], any> {
  name: 'SafeInt';
}

export type SubscriptionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = {
  messageUpdated?: SubscriptionResolver<ResolversTypes['Message'], "messageUpdated", ParentType, ContextType, RequireFields<SubscriptionMessageUpdatedArgs, 'id'>>;
  petCreated?: SubscriptionResolver<ResolversTypes['Pet'], "petCreated", ParentType, ContextType, Partial<SubscriptionPetCreatedArgs>>;
};

export type Resolvers<ContextType = GraphQLContext> = {
  ApiKey?: ApiKeyResolvers<ContextType>;
  CancelOrderPayload?: CancelOrderPayloadResolvers<ContextType>;
  DateTime?: GraphQLScalarType;
  Message?: MessageResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  NewApiKeyWithSecret?: NewApiKeyWithSecretResolvers<ContextType>;
  Order?: OrderResolvers<ContextType>;
  OrderConnection?: OrderConnectionResolvers<ContextType>;
  OrderEdge?: OrderEdgeResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  Pet?: PetResolvers<ContextType>;
  PetConnection?: PetConnectionResolvers<ContextType>;
  PetEdge?: PetEdgeResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  SafeInt?: GraphQLScalarType;
  Subscription?: SubscriptionResolvers<ContextType>;
};

export type DirectiveResolvers<ContextType = GraphQLContext> = {
  cost?: CostDirectiveResolver<any, any, ContextType>;
  listSize?: ListSizeDirectiveResolver<any, any, ContextType>;
  mcpTool?: McpToolDirectiveResolver<any, any, ContextType>;
};
