import { readFile } from 'node:fs/promises';

/**
 * RSS of a process read from outside, in bytes (Linux /proc/<pid>/status, VmRSS). Works while the
 * process's own event loop is blocked. null where /proc is missing or the process is gone.
 */
export async function readProcRss(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
