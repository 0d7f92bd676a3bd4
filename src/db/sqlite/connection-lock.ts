/**
 * SQLite here is one connection in this process: one caller (a query, or a whole
 * transaction) holds it at a time, the others wait their turn, in order.
 */
export class ConnectionLock {
  readonly #waiting: (() => void)[] = [];
  #held = false;

  async lock(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Takes the connection if no one holds it, without waiting; false when someone does. */
  tryLock(): boolean {
    if (this.#held) return false;
    this.#held = true;
    return true;
  }

  unlock(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }

  /** Lets everyone waiting go first for `ms` (the holder has nothing open on the connection), then takes it back. */
  async pause(ms: number): Promise<void> {
    this.unlock();
    await new Promise((resolve) => setTimeout(resolve, ms));
    await this.lock();
  }
}
