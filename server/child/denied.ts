/**
 * What a fenced strategy tried, in words, from the permission model's ERR_ACCESS_DENIED (its
 * `permission` and, for the file system, `resource`): the reason of a refused run.
 */
export function deniedText(permission: string, resource: string | null): string {
  const at = resource ? ` ${resource}` : '';
  switch (permission) {
    case 'FileSystemWrite':
      return `no permission to write${at || ' files'}`;
    case 'FileSystemRead':
      return `no permission to read${at || ' that file'}`;
    case 'ChildProcess':
      return 'no permission to start a child process';
    case 'WorkerThreads':
      return 'no permission to start a worker thread';
    case 'Inspector':
      return 'no permission to open the inspector';
    // fence-guard.ts's: what the strategy reached for beyond its run's namespaces, in words already.
    case 'OutsideRun':
      return resource ?? 'reached outside its run';
    default:
      return `no permission for ${permission || 'that'}${at}`;
  }
}

/**
 * For a harness that answers a strategy's failed call (an HTTP 500) and goes on: a permission error
 * (a fenced strategy of yours tried what its fence forbids) must end the run as refused, naming it,
 * not as a wrong answer. Thrown on the next tick, it reaches bootstrap's uncaughtException, which
 * reports it (`denied`) and exits; the harness's exit handlers take its processes along. A plain
 * function with no state: a strategy's bundle may carry its own copy (the labs' helpers).
 */
export function endIfDenied(err: unknown): void {
  if ((err as NodeJS.ErrnoException | null)?.code === 'ERR_ACCESS_DENIED') {
    process.nextTick(() => {
      throw err;
    });
  }
}
