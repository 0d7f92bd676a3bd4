import type { FastifyContextConfig, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../errors/index.ts';
import type { Scope } from '../services/access-tokens/scopes.ts';
import { permits } from '../services/principal.ts';
import { unauthorized } from './auth/bearer-token.ts';
import { authenticate } from './auth/credentials.ts';
import type { Credentials } from './auth/credentials.ts';
import type { MaybePromise } from './maybe-promise.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Contract §5: a route every request of which needs a valid credential (401), and its scope (403). */
    keyed?: boolean;
    /** The scope a keyed route needs, where it is not its method's (GET and HEAD read; the rest write). */
    scope?: Scope;
  }
}

export interface EdgePassOptions {
  credentials: Credentials;
  /** Counts the request once the caller is known; throws (or rejects) RATE_LIMITED past its budget. */
  rateLimit: (request: FastifyRequest, reply: FastifyReply) => MaybePromise<void>;
  /** Charges an account made for a token's new subject, as a sign-up is (throws RATE_LIMITED). */
  newAccount: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;
const READING = new Set(['GET', 'HEAD']);

/**
 * The request's form, which nothing may read before it is checked: HTTP/1.1 needs a Host header
 * (RFC 9112 §3.2; node's own check answers with an empty body, so it is off and this one answers
 * with the Error body), and a JSON body must be UTF-8, not parsed as UTF-8 whatever its charset
 * says (RFC 8259 §8.1; no charset at all is fine).
 */
function malformed(request: FastifyRequest): AppError | null {
  if (request.raw.httpVersionMinor === 1 && request.headers.host === undefined) return AppError.of('BAD_REQUEST', 'noHost');
  const type = request.headers['content-type'];
  const charset = type === undefined ? undefined : CHARSET.exec(type)?.[1];
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') return AppError.of('INVALID_CONTENT_TYPE', 'charset');
  return null;
}

/** Who is calling, from `Authorization: Bearer <key or token>`: a promise only when the credential had to be looked up. */
function identify(credentials: Credentials, request: FastifyRequest, admit: () => Promise<void>): MaybePromise<void> {
  const verdict = authenticate(credentials, request.headers.authorization, admit);
  if (verdict instanceof Promise) return verdict.then((found) => settle(request, found));
  settle(request, verdict);
}

function settle(request: FastifyRequest, verdict: Awaited<ReturnType<typeof authenticate>>): void {
  if (verdict instanceof AppError) request.authRefusal = verdict;
  else request.principal = verdict;
}

/**
 * On a keyed route: a valid credential (an API key, or an access token), else 401; one that may
 * do what the route does (its `scope`, else its method's: GET and HEAD read, the rest write),
 * else 403 with RFC 6750's insufficient_scope challenge naming the scope. A credential without
 * scopes may do everything, and costs nothing here. (GraphQL decides per operation, MCP per message.)
 */
function keyRefusal(request: FastifyRequest, config: FastifyContextConfig): AppError | null {
  const { principal } = request;
  if (!principal) return request.authRefusal ?? unauthorized(request.headers.authorization);
  if (principal.scopes === null) return null;
  const scope = config.scope ?? (READING.has(request.method) ? 'petstore:read' : 'petstore:write');
  return permits(principal, scope) ? null : AppError.of('INSUFFICIENT_SCOPE', 'missing', { scope });
}

/**
 * The edge as one pass over every request, one callback-style onRequest hook in place of four:
 * its form; who calls (principal, or why not); its budget, per credential or per address
 * without a valid one (every route is counted, unknown paths and 405s included, so floods of bad
 * keys or junk paths are limited like everything else; only balancers' probes and the pages'
 * static assets are not); on a keyed route, the credential and its scope. Nothing waits unless a
 * step must: a key not verified recently, a budget shared through Redis. A route that answers the
 * edge's refusal itself once it has read its request (`refusedOnceRead`, MCP) finds it kept.
 */
export function edgePass({ credentials, rateLimit, newAccount }: EdgePassOptions) {
  function count(request: FastifyRequest, reply: FastifyReply, config: FastifyContextConfig, done: HookHandlerDoneFunction): void {
    const refused = (error: unknown) => {
      if (config.refusedOnceRead && error instanceof AppError) {
        request.edgeRefusal = error;
        return done();
      }
      done(error as Error);
    };
    const admitted = () => done(config.keyed ? (keyRefusal(request, config) ?? undefined) : undefined);
    let counting: MaybePromise<void>;
    try {
      counting = rateLimit(request, reply);
    } catch (error) {
      return refused(error);
    }
    if (counting) counting.then(admitted, refused);
    else admitted();
  }

  return function edge(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const bad = malformed(request);
    if (bad) return done(bad);
    // Read once per request: Fastify builds the route's options anew on each read.
    const { config } = request.routeOptions;
    if (config.probe) {
      request.probe = true;
      return done();
    }
    if (config.asset) return done();
    let identified: MaybePromise<void>;
    try {
      identified = identify(credentials, request, () => newAccount(request, reply));
    } catch (error) {
      return done(error as Error);
    }
    if (identified) identified.then(() => count(request, reply, config, done), done);
    else count(request, reply, config, done);
  };
}
