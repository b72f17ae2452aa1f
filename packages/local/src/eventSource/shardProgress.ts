/** Where each shard's reading is: started, idle (read to its current end) or finished. */
export class ShardProgress {
  private readonly running = new Map<string, Promise<void>>();
  private readonly finished = new Set<string>();
  /** When each shard's last read that found nothing began; cleared by one that found records. */
  private readonly idleSince = new Map<string, number>();

  isStarted(shardId: string): boolean {
    return this.running.has(shardId);
  }

  isFinished(shardId: string): boolean {
    return this.finished.has(shardId);
  }

  start(shardId: string, reading: Promise<void>): void {
    this.running.set(shardId, reading);
  }

  finish(shardId: string): void {
    this.finished.add(shardId);
  }

  idle(shardId: string, readAt: number): void {
    this.idleSince.set(shardId, readAt);
  }

  busy(shardId: string): void {
    this.idleSince.delete(shardId);
  }

  /** See StreamSource.caughtUp. */
  caughtUp(since: number): boolean {
    return (
      this.running.size > 0 &&
      [...this.running.keys()].every(
        (id) => this.finished.has(id) || (this.idleSince.get(id) ?? Number.NEGATIVE_INFINITY) >= since,
      )
    );
  }

  /** Every shard started so far has stopped reading. */
  async ended(): Promise<void> {
    await Promise.all(this.running.values());
  }
}
