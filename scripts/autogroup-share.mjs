// How much CPU a run child gets beside other work when its session's autogroup has nice N
// (docs/results.md §14): `node scripts/autogroup-share.mjs 19`, with busy loops started beside it.
// Linux with autogroup scheduling only. The child runs a 3 s busy loop in its own session (as a
// run child is forked detached) and reports its CPU time.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const nice = Number(process.argv[2] ?? 0);
if (!Number.isInteger(nice) || nice < 0 || nice > 19) {
  console.error('usage: node scripts/autogroup-share.mjs <nice 0-19>');
  process.exit(2);
}
const code = 'const t=Date.now();while(Date.now()-t<3000){} const u=process.cpuUsage(); process.send((u.user+u.system)/1000, () => process.exit(0))';
const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true });
writeFileSync(`/proc/${child.pid}/autogroup`, String(nice));
child.on('message', (ms) => console.log(`autogroup nice ${nice}: ${ms.toFixed(0)} ms of CPU in 3000 ms (${(ms / 30).toFixed(1)} % of a core)`));
