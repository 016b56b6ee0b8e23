/**
 * The Node runtimes this machine can run experiments on: the server's own Node, always, and the
 * ones `npm run runtimes -- add` installed under STREAM_LAB_RUNTIMES_DIR (default
 * <STREAM_LAB_DATA_DIR>/runtimes), one folder per full version: <version>/bin/node and
 * <version>/runtime.json. Only folders named like a version are ever read, and a spec reaches a
 * path only after it matched an installed version's name.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dataDir } from '../data/data-files';
import { compareVersions, NODE_SPEC_PATTERN, NODE_SPEC_RULE, newestMatching, type RuntimeInfo } from '../../lib/runtimes';

const FULL_VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}$/;

/** Where installed runtimes live. */
export function runtimesDir(): string {
  return resolve(process.env.STREAM_LAB_RUNTIMES_DIR || join(dataDir(), 'runtimes'));
}

export interface Runtime extends RuntimeInfo {
  /** The binary a run's child is forked with. */
  execPath: string;
}

/** The Node running this process. */
export function ownRuntime(): Runtime {
  return { version: process.versions.node, own: true, execPath: process.execPath };
}

/** Path of an installed version's binary (the version is checked to be digits and dots first). */
export function binaryOf(version: string): string {
  if (!FULL_VERSION.test(version)) throw new RangeError(`not a full Node version: "${version.slice(0, 40)}"`);
  return join(runtimesDir(), version, 'bin', 'node');
}

/** Installed runtimes (whatever state their binary is in), oldest first. */
export function installedVersions(): string[] {
  const dir = runtimesDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => FULL_VERSION.test(name) && existsSync(join(dir, name, 'runtime.json')))
    .sort(compareVersions);
}

/** Every runtime a run may name: the server's own first, then the installed ones (a copy of the own version is left out). */
export function listRuntimes(): Runtime[] {
  const own = ownRuntime();
  const installed = installedVersions()
    .filter((v) => v !== own.version)
    .map((version) => ({ version, own: false, execPath: binaryOf(version) }));
  return [own, ...installed];
}

/** The runtimes as the pages see them (no paths). */
export function runtimeInfos(): RuntimeInfo[] {
  return listRuntimes().map(({ version, own }) => ({ version, own }));
}

function installHint(spec: string): string {
  const have = listRuntimes().map((r) => (r.own ? `${r.version} (the server's)` : r.version));
  return `installed: ${have.join(', ')}; add one with: npm run runtimes -- add ${spec}`;
}

/**
 * The runtime a spec names (null: the server's own): the newest available version it covers.
 * Throws a RangeError naming `node` when the spec is malformed, nothing installed matches, or the
 * binary is missing or not executable. Synchronous, so the queue can refuse before anything starts.
 */
export function resolveRuntime(spec: string | null | undefined): Runtime {
  if (spec === null || spec === undefined) return ownRuntime();
  if (!NODE_SPEC_PATTERN.test(spec)) throw new RangeError(`${NODE_SPEC_RULE}, got "${String(spec).slice(0, 40)}"`);
  const runtimes = listRuntimes();
  const version = newestMatching(
    spec,
    runtimes.map((r) => r.version),
  );
  if (!version) throw new RangeError(`node: Node ${spec} is not installed (${installHint(spec)})`);
  const runtime = runtimes.find((r) => r.version === version)!;
  if (!runtime.own) {
    try {
      accessSync(runtime.execPath, constants.X_OK);
    } catch {
      throw new RangeError(
        `node: the runtime ${version} is broken (${runtime.execPath} is missing or not executable); reinstall it: npm run runtimes -- remove ${version} && npm run runtimes -- add ${version}`,
      );
    }
  }
  return runtime;
}

const verified = new Map<string, string>();

/**
 * Runs the binary with --version (once per binary file state) and checks it is the version its
 * folder says; rejects with a message naming the runtime when it does not run or lies.
 */
export async function verifyRuntime(runtime: Runtime): Promise<void> {
  if (runtime.own) return;
  const st = statSync(runtime.execPath);
  const key = `${runtime.execPath}:${st.size}:${st.mtimeMs}`;
  if (verified.get(runtime.execPath) === key) return;
  const out = await runVersion(runtime.execPath).catch((err: Error & { killed?: boolean }) => {
    // Slow is not broken: a first start of a 100 MB binary on a busy machine can take seconds.
    if (err.killed)
      throw new Error(
        `the runtime ${runtime.version} did not answer ${runtime.execPath} --version within ${VERSION_TIMEOUT_MS / 1000} s: the machine may be too busy; try again`,
      );
    throw new Error(
      `the runtime ${runtime.version} is broken: ${runtime.execPath} --version failed (${err.message.split('\n')[0]}); reinstall it with npm run runtimes -- add ${runtime.version}`,
    );
  });
  if (out !== `v${runtime.version}`)
    throw new Error(
      `the runtime ${runtime.version} is broken: its binary says ${out.slice(0, 40) || 'nothing'}; reinstall it with npm run runtimes -- add ${runtime.version}`,
    );
  verified.set(runtime.execPath, key);
}

/**
 * How long `--version` may take. 5 s was too short: beside two busy loops and an e2e run, Node 22's
 * first start once took longer (busy 48, 2026-11-28) and a good runtime was called broken.
 */
const VERSION_TIMEOUT_MS = 30_000;

/** `<binary> --version`, trimmed (VERSION_TIMEOUT_MS at most; then the error's `killed` is set). */
export function runVersion(binary: string, timeoutMs = VERSION_TIMEOUT_MS): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(binary, ['--version'], { timeout: timeoutMs, env: { ...process.env, NODE_OPTIONS: '' } }, (err, stdout) =>
      err ? reject(err) : resolvePromise(stdout.trim()),
    );
  });
}

/** What runtime.json says of an installed version (npm package and when), or null. */
export function installRecord(version: string): { package: string; installedAt: string } | null {
  try {
    return JSON.parse(readFileSync(join(runtimesDir(), version, 'runtime.json'), 'utf8')) as { package: string; installedAt: string };
  } catch {
    return null;
  }
}

/** Removes an installed version (the full version or a spec covering exactly one); returns what it removed. */
export function removeRuntime(spec: string): string {
  if (!NODE_SPEC_PATTERN.test(spec)) throw new RangeError(`${NODE_SPEC_RULE}, got "${spec.slice(0, 40)}"`);
  const matches = installedVersions().filter((v) => newestMatching(spec, [v]) === v);
  if (matches.length === 0) throw new RangeError(`Node ${spec} is not installed (${installHint(spec)})`);
  if (matches.length > 1) throw new RangeError(`${spec} matches ${matches.join(', ')}: name one full version`);
  rmSync(join(runtimesDir(), matches[0]), { recursive: true, force: true });
  return matches[0];
}
