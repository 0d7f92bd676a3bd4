import type { Redis } from 'ioredis';

/** How often Redis is pinged, answering or not: a Redis that stops answering is found within this (plus the ping's own timeout). */
const PING_EVERY_MS = 500;

export interface RedisGuard {
  /** Whether to send commands now: false from the first command or ping that got no answer until a ping is answered again. */
  usable(): boolean;
  /** A command failed or timed out: no more are sent until a ping is answered. */
  failed(error: unknown): void;
  /** Stops the pings. */
  close(): void;
}

export interface RedisGuardOptions {
  /** Told once when Redis stops answering (refused, or hung: a stopped process, a partition), with why. */
  onDown(error: unknown): void;
  /** Told once when it answers again. */
  onUp(): void;
}

/**
 * Keeps requests from waiting on a Redis that does not answer. A Redis that refuses
 * connections fails each command at once, but one that hangs (SIGSTOP, a blackholed port, a
 * blocked primary) holds every command for the client's whole timeout: each request would
 * pay it. So the first command or ping that gets no answer marks Redis away, and from then on
 * nothing is sent on a request's behalf: the callers answer as they do when it is refused
 * (uncounted, not cached). A ping goes out every PING_EVERY_MS whatever the state (one at a
 * time, with the client's command timeout), so a hang is found within a second even between
 * requests, and the first ping answered brings Redis back.
 */
export function guardRedis(redis: Redis, { onDown, onUp }: RedisGuardOptions): RedisGuard {
  let up = true;
  let pinging = false;
  const down = (error: unknown) => {
    if (!up) return;
    up = false;
    onDown(error);
  };
  const ping = () => {
    if (pinging) return;
    pinging = true;
    redis.ping().then(
      () => {
        pinging = false;
        if (up) return;
        up = true;
        onUp();
      },
      (error: unknown) => {
        pinging = false;
        down(error);
      },
    );
  };
  const timer = setInterval(ping, PING_EVERY_MS);
  timer.unref();
  return {
    usable: () => up,
    failed: down,
    close: () => clearInterval(timer),
  };
}
