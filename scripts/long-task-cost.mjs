// `node scripts/long-task-cost.mjs on|off`: CPU time of an otherwise idle Node process over 5 s, with and
// without a 10 ms timer doing what server/child/long-tasks.ts does per tick (docs/results.md §11).
const on = process.argv[2] === 'on';
const start = process.cpuUsage();
let last = Number(process.hrtime.bigint() / 1000n),
  maxLate = 0;
const keep = setTimeout(() => {}, 6000);
if (on)
  setInterval(() => {
    const now = Number(process.hrtime.bigint() / 1000n);
    maxLate = Math.max(maxLate, (now - last) / 1000 - 10);
    last = now;
  }, 10).unref();
setTimeout(() => {
  const u = process.cpuUsage(start);
  console.log(on ? 'detector' : 'idle', ((u.user + u.system) / 1000).toFixed(1), 'ms CPU in 5 s');
  clearTimeout(keep);
  process.exit(0);
}, 5000);
