import type { FetchAPI } from 'graphql-yoga';

/**
 * Node's own fetch classes, as Yoga's result processing takes them: processRegularResult, which
 * shapes a JSON answer with errors by GraphQL over HTTP's status rules, uses only Response.
 */
export const FETCH_API = globalThis as unknown as FetchAPI;
