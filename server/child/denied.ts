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
