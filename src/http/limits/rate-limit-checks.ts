import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/index.ts';
import type { RateLimitConfig } from '../../config/load-config.ts';
import { RATE_WINDOW_MS } from './rate-limiter.ts';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.ts';
import { NO_METRICS } from '../../telemetry/metrics-types.ts';
import type { Metrics } from '../../telemetry/metrics-types.ts';
import type { AnswerHeaders, Exchange } from '../exchange.ts';
import { whenReady } from '../maybe-promise.ts';
import type { MaybePromise } from '../maybe-promise.ts';

function announce(reply: AnswerHeaders, decision: RateLimitDecision): void {
  if (decision.uncounted) return;
  reply.header('RateLimit-Policy', `"${decision.policy}";q=${decision.limit};w=${RATE_WINDOW_MS / 1000}`);
  reply.header('RateLimit', `"${decision.policy}";r=${decision.remaining};t=${decision.resetSeconds}`);
  if (!decision.allowed) reply.header('Retry-After', String(decision.resetSeconds));
}

export interface RateLimitChecks {
  /** Every request, after the caller is identified: per credential (a key, or a token's holder), or per address without a valid one. */
  request(request: FastifyRequest, reply: FastifyReply): MaybePromise<void>;
  /**
   * An operation that comes without an HTTP request of its own (a graphql-ws subscribe): charged
   * to its credential's budget (principal.bucket) as a request is, refused the same way, with no
   * headers to carry the count.
   */
  keyed(bucket: string): MaybePromise<void>;
  /** Sending `count` messages: the tighter per-key quota, all or none; its count on the answer where it has headers. */
  message(exchange: Pick<Exchange, 'principal'>, answer: AnswerHeaders | null, count?: number): MaybePromise<void>;
  /**
   * One sign-up from the caller's address: a budget of its own, always counted. It is a
   * security limit, so it never fails open: when the shared store cannot count, this process does.
   */
  signup(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * An account made for an access token's new subject: charged as a sign-up is (the address's
   * budget), and, as every new account, to the fleet-wide budget of new accounts. Fail-closed too.
   * `reply` carries the headers, where there is one (not on a WebSocket).
   */
  newAccount(address: string, reply: FastifyReply | null): Promise<void>;
  /** An attempt without a valid credential that comes without an HTTP request of its own (a graphql-ws connection_init), charged to its address. */
  keyless(address: string): MaybePromise<void>;
}

/**
 * The checks, each throwing RATE_LIMITED (429) when a quota is spent: at once where this process
 * counts (no promise on the hot path), else rejecting once the shared store has answered.
 */
export function rateLimitChecks(limiter: RateLimiter, limits: RateLimitConfig, metrics: Metrics = NO_METRICS): RateLimitChecks {
  const enforce = (reply: AnswerHeaders | null, decision: RateLimitDecision) => {
    if (reply) announce(reply, decision);
    if (!decision.allowed) {
      metrics.refused(decision.policy);
      throw AppError.of('RATE_LIMITED', 'spent', { limit: decision.limit, policy: decision.policy, seconds: decision.resetSeconds });
    }
  };
  // The address's budget first, then the fleet's: a flood from one address spends only its own.
  async function newAccount(address: string, reply: FastifyReply | null): Promise<void> {
    enforce(reply, await limiter.take(`signup:${address}`, 'signups-per-address', limits.signupsPerAddress, { failClosed: true }));
    // Announced only when it refuses: the fleet's count is nobody's own budget.
    const fleet = await limiter.take('accounts', 'new-accounts', limits.newAccounts, { failClosed: true });
    enforce(fleet.allowed ? null : reply, fleet);
  }
  return {
    request(request, reply) {
      if (limits.perKey === 0) return;
      const decision = request.principal
        ? limiter.take(request.principal.bucket, 'per-key', limits.perKey)
        : limiter.take(`addr:${request.ip}`, 'per-address-without-key', limits.perAddressWithoutKey);
      return whenReady(decision, (decided) => enforce(reply, decided));
    },
    keyed(bucket) {
      if (limits.perKey === 0) return;
      return whenReady(limiter.take(bucket, 'per-key', limits.perKey), (decided) => enforce(null, decided));
    },
    message(exchange, answer, count = 1) {
      if (limits.perKey === 0 || !exchange.principal) return;
      // A key's quota under the name it has always had (budgets shared in Redis survive an upgrade).
      const owner = exchange.principal.keyId ?? exchange.principal.bucket;
      const decision = limiter.take(`messages:${owner}`, 'messages-per-key', limits.messagesPerKey, { cost: count });
      return whenReady(decision, (decided) => enforce(answer, decided));
    },
    signup: (request, reply) => newAccount(request.ip, reply),
    newAccount,
    keyless(address) {
      if (limits.perKey === 0) return;
      const decision = limiter.take(`addr:${address}`, 'per-address-without-key', limits.perAddressWithoutKey);
      return whenReady(decision, (decided) => enforce(null, decided));
    },
  };
}
