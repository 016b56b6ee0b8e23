/**
 * Inside a fenced run in namespaces of its own (server/user-strategies/namespaces.ts): names what
 * the strategy tried beyond its run, so the run ends `refused` saying so instead of failing
 * obscurely. It is NOT the enforcement — the namespaces are: a signal to a pid outside the run has
 * no pid to reach there, a connection outside has no route, whether or not this guard sees it. Code
 * that slips past the guard (a copy of `kill` taken before it was installed, a native addon) still
 * reaches nothing; only the reason is lost.
 *
 * Signals: `process.kill` to the run's PID 1 (its parent, a harness shell that ignores signals) or
 * to a pid the namespace does not have (ESRCH: the server, another run's process, or nothing at
 * all — from inside, these can't be told apart, which is the point) is named. Signals within the
 * run (its own children, `kill(0)`: its own process group) go through as asked.
 *
 * Connections: one the strategy's own code opened (its bundle on the stack when it called connect)
 * that fails for want of a listener or a route is named. Inside the run, only the run's own
 * services listen, so such a failure means it reached for something outside (the lab's server,
 * Redis, a database) — or for a service of its run that is not up, which names no less truly where it
 * tried. The harness's own connections (its PostgreSQL while it starts, its inspector) are never named.
 */
import net from 'node:net';

/** The errors of a connection that found nobody to talk to inside the namespace. */
const NOBODY = new Set(['ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'ENETDOWN']);
/** Frames enough to find the strategy's own under a client library's (pg, ioredis, http's agent). */
const STACK_FRAMES = 60;

/** Installs the guard; `report` ends the run as refused with this reason (bootstrap's). */
export function guardRun(opts: { strategyUrl: string; report: (reason: string) => void }): void {
  guardSignals(opts.report);
  guardConnections(opts.strategyUrl, opts.report);
}

function guardSignals(report: (reason: string) => void): void {
  const kill = process.kill.bind(process);
  const outside = (signal: string | number | undefined) =>
    `sent ${typeof signal === 'number' ? `signal ${signal}` : (signal ?? 'SIGTERM')} to a process outside its run`;
  process.kill = (pid: number, signal?: string | number): true => {
    // Its parent is the namespace's PID 1, the harness's, not the strategy's: the kernel would
    // drop the signal silently (PID 1 has no handler); the strategy meant the server.
    // Signal 0 sends nothing (a liveness check, as the harness's PostgreSQL lock check makes).
    if (signal === 0) return kill(pid, signal);
    if (pid === process.ppid || pid === 1) {
      report(outside(signal));
      throw deniedError(outside(signal));
    }
    // Every process it may signal: in its namespace, only its run's are there; it meant all of them.
    if (pid === -1) {
      try {
        kill(pid, signal);
      } catch {
        // ESRCH: nobody else in its run to signal.
      }
      const all = `sent ${typeof signal === 'number' ? `signal ${signal}` : (signal ?? 'SIGTERM')} to every process it may signal (kill(-1)), outside its run too`;
      report(all);
      throw deniedError(all);
    }
    try {
      return kill(pid, signal);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH' && pid !== 0) {
        report(outside(signal));
        throw deniedError(outside(signal));
      }
      throw err;
    }
  };
}

function guardConnections(strategyUrl: string, report: (reason: string) => void): void {
  const connect = net.Socket.prototype.connect as (this: net.Socket, ...args: unknown[]) => net.Socket;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]): net.Socket {
    if (fromStrategy(strategyUrl)) {
      const where = destination(args);
      this.once('error', (err: NodeJS.ErrnoException) => {
        if (err.code && NOBODY.has(err.code)) report(`connected to ${where}, outside its run (${err.code})`);
      });
    }
    return connect.apply(this, args);
  } as typeof net.Socket.prototype.connect;
}

/** Is the strategy's own module on the stack of this call? */
function fromStrategy(strategyUrl: string): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = STACK_FRAMES;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return stack.includes(strategyUrl);
}

/** "host:port" (or the socket's path) from connect's arguments, in any of its forms. */
function destination(args: unknown[]): string {
  // http's agent and net.connect pass [options, cb] (internally [[options, cb]] with the normalized flag).
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === 'object' && first !== null) {
    const o = first as { host?: string; port?: number | string; path?: string };
    if (o.path) return o.path;
    return `${o.host ?? 'localhost'}:${o.port ?? '?'}`;
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return first;
  return `${typeof args[1] === 'string' ? args[1] : 'localhost'}:${String(first)}`;
}

/** The error the strategy's call throws: the permission model's code, so harnesses treat it as a refusal (denied.ts). */
function deniedError(message: string): Error {
  return Object.assign(new Error(message), { code: 'ERR_ACCESS_DENIED', permission: 'OutsideRun', resource: message });
}
