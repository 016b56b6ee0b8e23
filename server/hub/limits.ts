/**
 * What one connection may cost: a token bucket per kind of expensive request, and caps on open
 * sockets per address and in total. Pure bookkeeping; the hub decides what to answer.
 */
import { readIntSetting } from '../env';

/** Requests allowed in a burst, then one every `everyMs`. */
export interface RateLimit {
  burst: number;
  everyMs: number;
}

/**
 * A snapshot costs the server a few MB to send, an experiment a queue slot: a page needs one
 * resync after a reconnect and a person starts a few experiments a minute.
 */
export const RATE_LIMITS = {
  resync: { burst: 3, everyMs: 5000 },
  'experiment.start': { burst: 5, everyMs: 3000 },
} as const satisfies Record<string, RateLimit>;

export type LimitedRequest = keyof typeof RATE_LIMITS;

/** A token bucket; `take()` answers how long to wait (0 = allowed now). */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = limit.burst;
    this.updatedAt = now();
  }

  /** Takes one token if there is one; otherwise returns the ms until the next one. */
  take(): number {
    const t = this.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + (t - this.updatedAt) / this.limit.everyMs);
    this.updatedAt = t;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - this.tokens) * this.limit.everyMs);
  }
}

/** The wording every rate-limit error uses. */
export function rateLimitMessage(kind: LimitedRequest, waitMs: number, { burst, everyMs }: RateLimit = RATE_LIMITS[kind]): string {
  return `${kind}: at most ${burst} at once, then one every ${everyMs / 1000} s per connection; try again in ${(waitMs / 1000).toFixed(1)} s`;
}

export interface ConnectionCaps {
  total: number;
  perAddress: number;
}

/**
 * Defaults sized for a training room: hundreds of viewers (a room behind one NAT shares one
 * address), while a page opening sockets in a loop is stopped well before memory matters.
 */
export const CONNECTION_CAPS = {
  total: { env: 'STREAM_LAB_MAX_CONNECTIONS', min: 1, max: 100_000, default: 1024 },
  perAddress: { env: 'STREAM_LAB_MAX_CONNECTIONS_PER_ADDRESS', min: 1, max: 100_000, default: 256 },
} as const;

/** Reads the caps from the environment; a bad value stops startup with a message naming it. */
export function readConnectionCaps(env: Record<string, string | undefined> = process.env): ConnectionCaps {
  return { total: readIntSetting(CONNECTION_CAPS.total, env), perAddress: readIntSetting(CONNECTION_CAPS.perAddress, env) };
}

/** Counts open sockets per remote address. */
export class ConnectionCounter {
  private readonly perAddress = new Map<string, number>();
  private total = 0;

  constructor(private readonly caps: ConnectionCaps) {}

  /** Why a new socket from `address` would be refused, or null when it may open. */
  refusal(address: string): string | null {
    if (this.total >= this.caps.total) return `the server has ${this.total} open connections, its limit`;
    if ((this.perAddress.get(address) ?? 0) >= this.caps.perAddress) return `${address} has ${this.caps.perAddress} open connections, the limit per address`;
    return null;
  }

  /** Counts a socket in; the returned function counts it out (once). */
  open(address: string): () => void {
    this.total += 1;
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.total -= 1;
      const n = (this.perAddress.get(address) ?? 1) - 1;
      if (n <= 0) this.perAddress.delete(address);
      else this.perAddress.set(address, n);
    };
  }

  count(): number {
    return this.total;
  }
}
