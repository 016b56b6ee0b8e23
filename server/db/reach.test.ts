/**
 * Whether PostgreSQL's user can reach the binaries and the cluster (reach.ts): the mode-bit rule
 * as a pure function, and, as root, the shared copy, the relocated cluster and the refusals on
 * real folders.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { embeddedRefusal, findBinDir, pgUser } from './postgres';
import {
  canPass,
  chainOf,
  firstBlocking,
  fixFor,
  NOTE,
  onlyRootCanChange,
  placeCluster,
  PostgresUnreachable,
  runsAs,
  sharedCopy,
  sharedDir,
  sweepClusters,
  usableBinDir,
  type DirMode,
  type Who,
} from './reach';

const PG: Who = { uid: 101, gid: 104 };
const dir = (path: string, mode: number, uid = 0, gid = 0): DirMode => ({ path, mode, uid, gid });

describe('which folder blocks the postgres user (mode bits)', () => {
  it('names the private folder of a project cloned under mktemp -d, and the chmod that opens it', () => {
    const chain = [
      dir('/', 0o755),
      dir('/tmp', 0o1777),
      dir('/tmp/tmp.abc', 0o700),
      dir('/tmp/tmp.abc/repo', 0o755),
      dir('/tmp/tmp.abc/repo/node_modules', 0o755),
    ];
    const blocked = firstBlocking(chain, PG);
    expect(blocked?.path).toBe('/tmp/tmp.abc');
    expect(fixFor(blocked!, PG)).toBe('chmod o+x /tmp/tmp.abc');
    expect(firstBlocking([dir('/', 0o755), dir('/root', 0o700), dir('/root/p', 0o755)], PG)?.path).toBe('/root');
  });

  it('lets it through folders others may pass (o+x alone is enough: no read bit needed)', () => {
    expect(firstBlocking([dir('/', 0o755), dir('/tmp', 0o1777), dir('/tmp/x', 0o711), dir('/srv', 0o701)], PG)).toBeNull();
  });

  it("uses the owner's bits for its own folders and the group's for its group's, as the kernel does", () => {
    // Its own folder without u+x blocks it even when others may pass.
    expect(canPass(dir('/d', 0o071, PG.uid, 0), PG)).toBe(false);
    expect(canPass(dir('/d', 0o700, PG.uid, 0), PG)).toBe(true);
    // Its group without g+x blocks it even when others may pass; the fix opens the group's bit.
    expect(canPass(dir('/d', 0o701, 0, PG.gid), PG)).toBe(false);
    expect(canPass(dir('/d', 0o750, 0, PG.gid), PG)).toBe(true);
    expect(fixFor(dir('/d', 0o701, 0, PG.gid), PG)).toBe('chmod g+x /d');
    expect(fixFor(dir('/d', 0o070, PG.uid, 0), PG)).toBe('chmod u+x /d');
    // Root passes everything.
    expect(canPass(dir('/d', 0o000), { uid: 0, gid: 0 })).toBe(true);
  });

  it('takes a shared folder only under folders only root can change (sticky ones such as /tmp count)', () => {
    expect(onlyRootCanChange([dir('/', 0o755), dir('/var', 0o755), dir('/var/tmp', 0o1777)])).toBe(true);
    expect(onlyRootCanChange([dir('/', 0o755), dir('/scratch', 0o777)])).toBe(false);
    expect(onlyRootCanChange([dir('/', 0o755), dir('/home/bob', 0o755, 1000, 1000)])).toBe(false);
  });
});

const isRoot = process.getuid?.() === 0;
// What the tests on real folders need and may lack: a shared folder the postgres user reaches
// (else the lab refuses, and these skip with its reason), a temp folder it can pass through.
const REFUSAL = isRoot ? await embeddedRefusal() : null;
const needsShared = (ctx: TestContext) => ctx.skip(REFUSAL !== null, REFUSAL ?? undefined);

describe.skipIf(!isRoot)('as root, on real folders', () => {
  let who: Who;
  let scratch: string;
  let tmpBlocked: string | null = null;
  const needsOpenTmp = (ctx: TestContext) => ctx.skip(tmpBlocked !== null, `the temp folder ${tmpdir()} is closed to the postgres user at ${tmpBlocked}`);
  beforeAll(async () => {
    const user = await pgUser();
    who = { uid: user.uid!, gid: user.gid! };
    tmpBlocked = firstBlocking(chainOf(tmpdir()), who)?.path ?? null;
    // A private folder, as mktemp -d makes it.
    scratch = mkdtempSync(join(tmpdir(), 'stream-lab-reach-'));
    chmodSync(scratch, 0o700);
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('runs PostgreSQL from binaries the postgres user can reach: in place, or a shared copy', async (ctx) => {
    needsShared(ctx);
    const binDir = await findBinDir();
    const usable = await usableBinDir(binDir, who);
    expect(await runsAs(usable, who)).toBeNull();
    if (usable !== binDir) expect(usable.startsWith(sharedDir(who))).toBe(true);
  });

  it('copies a tree once, whole, readable by others, symlinks kept; a copy missing a file, or older than its source, is made again', () => {
    const native = join(scratch, 'native');
    mkdirSync(join(native, 'bin'), { recursive: true });
    mkdirSync(join(native, 'lib'), { recursive: true });
    writeFileSync(join(native, 'bin', 'postgres'), '#!/bin/sh\necho "postgres (PostgreSQL) 0"\n', { mode: 0o700 });
    writeFileSync(join(native, 'lib', 'libpq.so.5.18'), 'lib', { mode: 0o600 });
    symlinkSync('libpq.so.5.18', join(native, 'lib', 'libpq.so.5'));
    const shared = mkdtempSync(join(tmpdir(), 'stream-lab-reach-shared-'));
    chmodSync(shared, 0o755);
    try {
      const copy = sharedCopy(native, shared, 'test-1');
      expect(copy).toBe(join(shared, 'test-1'));
      expect(statSync(join(copy, 'bin', 'postgres')).mode & 0o777).toBe(0o755);
      expect(statSync(join(copy, 'lib', 'libpq.so.5.18')).mode & 0o777).toBe(0o644);
      expect(statSync(join(copy, 'bin')).mode & 0o777).toBe(0o755);
      expect(statSync(copy).mode & 0o777).toBe(0o755);
      expect(readlinkSync(join(copy, 'lib', 'libpq.so.5'))).toBe('libpq.so.5.18');
      // Made once: the second call keeps the same files.
      const made = lstatSync(join(copy, 'bin', 'postgres')).ino;
      expect(sharedCopy(native, shared, 'test-1')).toBe(copy);
      expect(lstatSync(join(copy, 'bin', 'postgres')).ino).toBe(made);
      // A file gone (a temp cleaner): made again, whole.
      rmSync(join(copy, 'lib', 'libpq.so.5.18'));
      expect(sharedCopy(native, shared, 'test-1')).toBe(copy);
      expect(readFileSync(join(copy, 'lib', 'libpq.so.5.18'), 'utf8')).toBe('lib');
      // The source grew since (a copy taken mid-install, before npm made the library symlinks): made again.
      symlinkSync('libpq.so.5.18', join(native, 'lib', 'libpq.so'));
      expect(sharedCopy(native, shared, 'test-1')).toBe(copy);
      expect(readlinkSync(join(copy, 'lib', 'libpq.so'))).toBe('libpq.so.5.18');
      // No temp or set-aside copies left behind.
      expect(readdirSync(shared)).toEqual(['test-1']);
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });

  it("refuses a shared folder it can't reach, naming the folder and the fix", () => {
    const closed = join(scratch, 'closed');
    mkdirSync(closed, { mode: 0o700 });
    expect(() => sharedDir(who, [closed])).toThrow(PostgresUnreachable);
    // scratch (0700) is the first folder that blocks, unless one above it already does.
    const blocker = tmpBlocked ?? scratch;
    expect(() => sharedDir(who, [closed])).toThrow(`${blocker} is closed to it (fix: chmod o+x ${blocker})`);
  });

  it('refuses a shared folder someone else made (it would run their binaries)', (ctx) => {
    needsOpenTmp(ctx);
    const base = mkdtempSync(join(tmpdir(), 'stream-lab-reach-base-'));
    chmodSync(base, 0o755);
    try {
      mkdirSync(join(base, 'stream-lab-postgres'), { mode: 0o755 });
      chownSync(join(base, 'stream-lab-postgres'), who.uid, who.gid);
      expect(() => sharedDir(who, [base])).toThrow(`${join(base, 'stream-lab-postgres')} is not a folder only root can change`);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('keeps a reachable data folder in place; relocates one under a private folder, and removes it once that folder is gone', (ctx) => {
    needsShared(ctx);
    needsOpenTmp(ctx);
    const open = mkdtempSync(join(tmpdir(), 'stream-lab-reach-open-'));
    chmodSync(open, 0o755);
    try {
      expect(placeCluster(join(open, 'postgres'), who)).toBe(join(open, 'postgres'));
    } finally {
      rmSync(open, { recursive: true, force: true });
    }
    const root = join(scratch, 'data', 'postgres');
    const placed = placeCluster(root, who);
    const shared = sharedDir(who);
    expect(placed.startsWith(join(shared, 'cluster-'))).toBe(true);
    expect(placeCluster(root, who)).toBe(placed); // keyed by the data folder's path
    expect(readFileSync(join(placed, 'origin'), 'utf8').trim()).toBe(realpathSync(root));
    const note = readFileSync(join(root, NOTE), 'utf8');
    expect(note).toContain(`cannot pass through ${scratch}`);
    expect(note).toContain(placed);
    expect(sweepClusters(shared)).not.toContain(placed);
    rmSync(join(scratch, 'data'), { recursive: true, force: true });
    sweepClusters(shared);
    expect(existsSync(placed)).toBe(false);
  });
});
