// Finds the lab folders (labs/<id>/) and writes the index the registries import (labs/generated/):
// adding a lab is adding a folder, with no list to edit. npm runs this after install and before
// every script (the pre* scripts in package.json); it rewrites a file only when its text changes,
// so builds and watchers see no change when no lab was added or removed.
//   node scripts/lab-index.mjs          writes the index, or prints what is wrong with a folder and exits 1
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const labsDir = join(root, 'labs');
const outDir = join(labsDir, 'generated');

// What a lab folder has, and the name each module exports for the registries.
const PARTS = [
  { file: 'shared/id.ts', export: null },
  { file: 'shared/schema.ts', export: 'schema' },
  { file: 'parent/index.ts', export: 'lab' },
  { file: 'view/index.tsx', export: 'view' },
  // Apart from the view, so the server can judge a run without importing React (labs/verdicts.ts).
  { file: 'view/verdict.ts', export: 'verdict' },
  { file: 'view/lessons.tsx', export: 'lessons' },
];
const ID = /^[a-z][a-z0-9-]*$/;

/** The lab folders, sorted by name, or the problems found (each names its folder). */
export function findLabFolders(dir = labsDir) {
  const labs = [];
  const problems = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    // A folder is a lab when it has a shared/schema.ts; anything else (generated/, a stray folder) is not one.
    if (!statSync(path).isDirectory() || !existsSync(join(path, 'shared', 'schema.ts'))) continue;
    const missing = PARTS.filter((p) => !existsSync(join(path, p.file))).map((p) => p.file);
    if (!ID.test(name)) problems.push(`labs/${name}: a lab folder's name is its id: lower-case letters, digits and "-", starting with a letter`);
    else if (missing.length) problems.push(`labs/${name}: a lab folder needs ${missing.join(', ')} (see docs/architecture.md, "Adding a lab")`);
    else {
      const declared = /export const LAB_ID = '([^']*)'/.exec(readFileSync(join(path, 'shared', 'id.ts'), 'utf8'))?.[1];
      if (declared !== name)
        problems.push(
          `labs/${name}/shared/id.ts: LAB_ID must be the folder's name, '${name}' (it says ${declared === undefined ? 'nothing' : `'${declared}'`})`,
        );
      else labs.push(name);
    }
  }
  return { labs, problems };
}

function moduleText(labs, part, body) {
  const head = '// Written by scripts/lab-index.mjs from the lab folders in labs/; not committed, do not edit.\n';
  const imports = labs.map((id, i) => `import { ${part.export} as lab${i} } from '../${id}/${part.file.replace(/\.tsx?$/, '')}';\n`).join('');
  return head + imports + body(labs.map((_, i) => `lab${i}`)) + '\n';
}

const part = (exp) => PARTS.find((p) => p.export === exp);
const FILES = {
  'schemas.ts': (labs) =>
    moduleText(labs, part('schema'), (names) =>
      [
        "import { summaryOf } from '../summary-of';",
        `export const FOUND_SCHEMAS = [${names.join(', ')}] as const;`,
        `export const FOUND_SUMMARY_SCHEMAS = [${names.map((n) => `summaryOf(${n})`).join(', ')}] as const;`,
      ].join('\n'),
    ),
  'parents.ts': (labs) =>
    moduleText(labs, part('lab'), (names) => `export const FOUND_LABS = [${names.map((n, i) => `{ folder: '${labs[i]}', lab: ${n} }`).join(', ')}] as const;`),
  'views.ts': (labs) => moduleText(labs, part('view'), (names) => `export const FOUND_VIEWS = [${names.join(', ')}] as const;`),
  'verdicts.ts': (labs) =>
    moduleText(
      labs,
      part('verdict'),
      (names) => `export const FOUND_VERDICTS = [${names.map((n, i) => `{ folder: '${labs[i]}', verdict: ${n} }`).join(', ')}] as const;`,
    ),
  'lessons.ts': (labs) => moduleText(labs, part('lessons'), (names) => `export const FOUND_LESSONS = [${names.join(', ')}] as const;`),
};

/** Writes labs/generated/ for these labs; returns the files whose text changed. */
export function writeLabIndex(labs) {
  mkdirSync(outDir, { recursive: true });
  const changed = [];
  for (const [file, text] of Object.entries(FILES)) {
    const path = join(outDir, file);
    const next = text(labs);
    if (existsSync(path) && readFileSync(path, 'utf8') === next) continue;
    writeFileSync(path, next);
    changed.push(file);
  }
  return changed;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { labs, problems } = findLabFolders();
  if (problems.length) {
    console.error(`Lab folders that can't be used:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  if (labs.length === 0) {
    console.error('No lab folders found in labs/ (a lab folder has shared/schema.ts).');
    process.exit(1);
  }
  const changed = writeLabIndex(labs);
  if (changed.length) console.log(`labs: ${labs.join(', ')} (index written: labs/generated/${changed.join(', ')})`);
}
