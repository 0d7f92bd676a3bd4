import type { Redis } from 'ioredis';

/** What ioredis's sendCommand takes: the command's own promise settles it. */
interface SentCommand {
  isResolved: boolean;
  reject(error: Error): void;
}

/**
 * ioredis's `commandTimeout`, judged by Redis rather than by this process: a command fails after
 * `ms` only if its answer has not arrived. ioredis's own timer is the first thing to run when
 * the event loop comes back from a busy stretch (a timer, before the sockets are read), so on
 * an overloaded instance it failed commands whose answers were already waiting in the socket,
 * and one such failure turned rate limits off for everyone (issue 57). Here, when the timer
 * fires, the sockets are read once (setImmediate runs after the loop's I/O) before the command
 * is judged: a Redis that answered in time is never marked away for this process's slowness; a
 * Redis that does not answer still fails the command after `ms`, plus whatever the loop owed.
 */
export function answerDeadline(redis: Redis, ms: number): void {
  const send = redis.sendCommand.bind(redis) as (command: SentCommand, stream?: unknown) => unknown;
  const judge = (command: SentCommand) => {
    if (!command.isResolved) command.reject(new Error(`Redis did not answer within ${ms} ms`));
  };
  (redis as unknown as { sendCommand: typeof send }).sendCommand = (command, stream) => {
    const sent = send(command, stream);
    if (!command.isResolved) setTimeout(() => setImmediate(judge, command), ms);
    return sent;
  };
}
