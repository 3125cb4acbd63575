/** One request the simulator received, as tests see it. */
export interface UpstreamRequest {
  /** Clock time (ms) when the request arrived. */
  readonly at: number;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Lower-cased header names, as node delivers them. */
  readonly headers: Readonly<Record<string, string>>;
  /** Status answered; 0 while pending or when the request was left hanging. */
  status: number;
}

export interface UpstreamRequestLog {
  /** Oldest first; bounded to the most recent entries. */
  readonly entries: readonly UpstreamRequest[];
  count(predicate?: (request: UpstreamRequest) => boolean): number;
  clear(): void;
}

// Enough for a soak test's window of calls, while a long-running simulator's log stays bounded.
export const DEFAULT_REQUEST_LOG_LIMIT = 10_000;

export class RequestLog implements UpstreamRequestLog {
  private items: UpstreamRequest[] = [];

  constructor(private readonly limit = DEFAULT_REQUEST_LOG_LIMIT) {}

  get entries(): readonly UpstreamRequest[] {
    return this.items.length > this.limit ? this.items.slice(-this.limit) : this.items;
  }

  add(request: UpstreamRequest): void {
    this.items.push(request);
    // Trim in chunks so a full log does not shift the array on every request.
    if (this.items.length > this.limit * 1.1) this.items = this.items.slice(-this.limit);
  }

  count(predicate?: (request: UpstreamRequest) => boolean): number {
    const items = this.entries;
    return predicate ? items.filter(predicate).length : items.length;
  }

  clear(): void {
    this.items = [];
  }
}
