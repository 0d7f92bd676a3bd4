import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, Logger } from 'pino';

/**
 * A request's logger, made only when a line is written through it. Fastify builds a pino child
 * for every request (its bindings serialised, its options checked: 0.7 KB of heap a request with
 * Fastify's bindings object), and a request that goes well writes nothing through it: its access
 * line goes through the root with its id (`AccessLogController`). So the child waits for the
 * first line a level lets through (an error, a debug line at debug): the same line, the same
 * bytes, as the child would have written at once. Not a CPU cut: the line's own id field costs
 * about what the child did (docs/performance.md, 2026-12-05 morning).
 */
export class RequestLog implements FastifyBaseLogger {
  readonly #root: Logger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | null = null;

  constructor(root: Logger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#root = root;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The logger the request's lines go through, made on first use. */
  #made(): FastifyBaseLogger {
    return (this.#child ??= this.#root.child(this.#bindings, this.#options));
  }

  /** Whether a line at `level` would be written: without making the child, unless the route sets a level of its own. */
  #writes(level: Level): boolean {
    return this.#child === null && this.#options.level === undefined ? this.#root.isLevelEnabled(level) : true;
  }

  /** The logger above the request's: for a line that carries the request id itself (the access line). */
  static rootOf(log: FastifyBaseLogger): FastifyBaseLogger {
    return log instanceof RequestLog ? log.#root : log;
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#root.level;
  }

  set level(level: string) {
    this.#made().level = level;
  }

  // On the prototype, not one closure a level for each request.
  fatal(...line: unknown[]): void {
    this.#line('fatal', line);
  }
  error(...line: unknown[]): void {
    this.#line('error', line);
  }
  warn(...line: unknown[]): void {
    this.#line('warn', line);
  }
  info(...line: unknown[]): void {
    this.#line('info', line);
  }
  debug(...line: unknown[]): void {
    this.#line('debug', line);
  }
  trace(...line: unknown[]): void {
    this.#line('trace', line);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }

  /** Writes through the child, made now, when `level` is on. */
  #line(level: Level, line: unknown[]): void {
    if (this.#writes(level)) (this.#made()[level] as (...args: unknown[]) => void)(...line);
  }
}

/** Fastify's `childLoggerFactory`: a `RequestLog` in place of a pino child per request. */
export function lazyRequestLog(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // Fastify's root logger here is always pino's (createFastify gives it pino's options).
  return new RequestLog(logger as Logger, bindings, options);
}
