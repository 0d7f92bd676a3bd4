/**
 * Watches the statements a database runs, for metrics and traces (src/telemetry sets one; by
 * default none, and the dialects then do nothing extra). src/db names no observer: it only calls one.
 */
export interface StatementObserver {
  /** A statement starts; the function returned is called once when it ends, `failed` when it threw. */
  start(sql: string): (failed: boolean) => void;
  /** SQLite: a statement waited this long for another process's write lock before trying again. */
  lockWait(seconds: number): void;
}

/** Where a database keeps its observer: set after opening (OpenDatabase.observe), read per statement. */
export interface ObserverSlot {
  observer: StatementObserver | null;
}
