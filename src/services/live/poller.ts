export interface PollerOptions {
  intervalMs: number;
  /** Whether there is anything to poll for; the poller sleeps while there is not. */
  active: () => boolean;
  run: () => Promise<void>;
  /** A failed run is retried at the next; this says so once per outage. */
  onError: (error: unknown) => void;
}

export interface Poller {
  /** Starts polling if it is not already and there is something to poll for. */
  wake(): void;
  /** No more runs. */
  stop(): void;
}

/** Runs `run` every `intervalMs` while `active()`, one run at a time. */
export function createPoller({ intervalMs, active, run, onError }: PollerOptions): Poller {
  let timer: NodeJS.Timeout | null = null;
  let failing = false;
  let stopped = false;
  const wake = (): void => {
    if (timer || stopped || !active()) return;
    timer = setTimeout(() => {
      run()
        .then(
          () => (failing = false),
          (error: unknown) => {
            if (!failing) onError(error);
            failing = true;
          },
        )
        .finally(() => {
          timer = null;
          wake();
        });
    }, intervalMs);
  };
  return {
    wake,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
