import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

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

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ): 100 on every Linux Node runs on. */
export const CLOCK_TICKS_PER_S = 100;

/**
 * CPU time (user + system) of a process so far, in ms, from /proc/<pid>/stat (fields 14 and 15).
 * Read from outside, so a child whose event loop is blocked still shows its CPU.
 */
export async function readProcCpuMs(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_S : null;
  } catch {
    return null;
  }
}

/**
 * True while `pid` is a live process. A zombie (exited, waiting for its parent or init to reap it —
 * slow in some containers) counts as gone: it runs nothing and holds no memory.
 */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * The live processes of a process group (/proc/<pid>/stat, field 5), the leader first when alive.
 * A run's child leads its group, and the processes it starts (a consumer's API, a database) are in
 * it unless they left it. [] where /proc is missing.
 */
export async function processGroup(pgid: number): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // After the command name: state, ppid, pgrp.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return members.sort((a, b) => (a === pgid ? -1 : b === pgid ? 1 : a - b));
}
