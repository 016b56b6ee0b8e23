/**
 * `npm run runtimes -- add 22 24 | list | remove 22.23.3`: the Node runtimes experiments can run on.
 * Progress goes to stderr, results to stdout; a bad argument exits with code 2 naming it.
 */
import { NODE_SPEC_PATTERN, NODE_SPEC_RULE } from '../../lib/runtimes';
import { installRuntime } from './install';
import { installRecord, listRuntimes, removeRuntime, runtimesDir, verifyRuntime } from './store';

const USAGE = 'usage: npm run runtimes -- add <version>… | list | remove <version>…   (a version: 22, 22.23 or 22.23.3)';

class UsageError extends Error {}

async function add(specs: string[]): Promise<void> {
  if (specs.length === 0) throw new UsageError(`add needs at least one version; ${USAGE}`);
  // Every argument is checked before anything is downloaded.
  const bad = specs.find((s) => !NODE_SPEC_PATTERN.test(s));
  if (bad !== undefined) throw new UsageError(`${NODE_SPEC_RULE}, got "${bad.slice(0, 40)}"`);
  for (const spec of specs) {
    let last = '';
    const progress = (line: string) => {
      // One line rewritten in place, like the bench's progress.
      process.stderr.write(`\r${spec}: ${line}\x1b[K`);
      last = line;
    };
    const { version, fresh } = await installRuntime(spec, progress);
    if (last) process.stderr.write('\n');
    process.stdout.write(fresh ? `installed Node ${version} in ${runtimesDir()}/${version}\n` : `Node ${version} is already installed\n`);
  }
}

async function list(): Promise<void> {
  process.stdout.write(`runtimes (${runtimesDir()}):\n`);
  for (const r of listRuntimes()) {
    if (r.own) {
      process.stdout.write(`  ${r.version.padEnd(10)} the server's own Node (${r.execPath})\n`);
      continue;
    }
    const state = await verifyRuntime(r).then(
      () => 'ok',
      (err: Error) => `BROKEN: ${err.message}`,
    );
    const from = installRecord(r.version);
    process.stdout.write(`  ${r.version.padEnd(10)} ${state}${from ? `, ${from.package}, installed ${from.installedAt}` : ''}\n`);
  }
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'add':
      return add(rest);
    case 'list':
      return list();
    case 'remove':
      if (rest.length === 0) throw new UsageError(`remove needs a version; ${USAGE}`);
      for (const spec of rest) process.stdout.write(`removed Node ${removeRuntime(spec)}\n`);
      return;
    default:
      throw new UsageError(command ? `unknown command "${command.slice(0, 40)}"; ${USAGE}` : USAGE);
  }
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`\nruntimes: ${message}\n`);
  process.exit(err instanceof UsageError || err instanceof RangeError ? 2 : 1);
});
