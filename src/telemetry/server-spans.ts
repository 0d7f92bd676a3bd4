import type { IncomingMessage } from 'node:http';
import type { Span } from '@opentelemetry/api';

const spans = new WeakMap<IncomingMessage, Span>();

/** The server span of a request, while tracing: for the access line's trace id and GraphQL's operation name. */
export const serverSpanOf = (request: IncomingMessage): Span | undefined => spans.get(request);

export const rememberServerSpan = (request: IncomingMessage, span: Span): void => void spans.set(request, span);
