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
    default:
      return `no permission for ${permission || 'that'}${at}`;
  }
}

/**
 * The first permission error a strategy's calls hit, for a harness that answers a failed call (an
 * HTTP 500) and goes on: the run must still end refused, naming what was tried (bootstrap.ts).
 */
export function deniedCalls(): { note(err: unknown): void; rethrow(): void } {
  let denied: Error | null = null;
  return {
    note(err) {
      if ((err as NodeJS.ErrnoException | null)?.code === 'ERR_ACCESS_DENIED') denied ??= err as Error;
    },
    rethrow() {
      if (denied) throw denied;
    },
  };
}
