import { pino } from 'pino';

export interface LogDestination {
  write(line: string): void;
  /** Writes what is buffered, now; for shutdown. */
  flushSync(): void;
}

export interface BufferedStdoutOptions {
  /** Bytes gathered before a write. */
  batchBytes?: number;
  /** The longest a line waits, so a quiet server's lines still show up at once for a person watching. */
  maxDelayMs?: number;
}

/**
 * Standard output in batches: one write per `batchBytes` (8 KiB) rather than one syscall per line
 * (a profile showed per-line writes at 13% of CPU), and no line held back longer than
 * `maxDelayMs`. Only a kill -9 can lose the lines of the last moment.
 */
export function bufferedStdout({ batchBytes = 8_192, maxDelayMs = 100 }: BufferedStdoutOptions = {}): LogDestination {
  const out = pino.destination({ dest: 1, sync: false, minLength: batchBytes });
  let timer: NodeJS.Timeout | null = null;
  const flushSoon = () => {
    timer = null;
    out.flush();
  };
  return {
    write(line) {
      out.write(line);
      if (!timer) {
        timer = setTimeout(flushSoon, maxDelayMs);
        timer.unref();
      }
    },
    flushSync() {
      if (timer) clearTimeout(timer);
      timer = null;
      out.flushSync();
    },
  };
}
