import next from 'eslint-config-next';

/**
 * The boundaries between the halves of the system, as import rules (docs/architecture.md):
 * code that runs in the browser (or is shared with it) never imports the server or a lab's parent
 * or child half; a run's child never imports zod (~110 ms and 14 MB a child; the parent validated
 * its config already) nor anything of the page.
 */
const SERVER_SIDE = {
  regex: '(^|/)(server|labs/[a-z0-9-]+/(parent|child))/|^@/server/|^\\.\\./(parent|child)/',
  message:
    "Browser-safe code (lib/, components/, app/, labs/<lab>/shared/ and view/) must not import server code: move what both need to lib/ or the lab's shared/.",
};
const PAGE_SIDE = {
  regex: '(^|/)(components|app|labs/[a-z0-9-]+/view)/|^@/(components|app)/|^\\.\\./view/|^(react|react-dom|next)(/|$)',
  message: "A run's child must not import the page's code.",
};
const OTHER_LAB = {
  regex: '^@/labs/|^(\\.\\./){2,3}(?!server/|lib/|components/|app/)[a-z0-9-]+/(shared|child|parent|view)/',
  message:
    "A lab folder imports its own files (relative paths) and the shared code, never another lab's: a copy of the folder under a new id must not reach back into the original.",
};
const ZOD = {
  regex: '^zod(/|$)',
  message: "A run's child must not load zod: import plain values from a zod-free module (e.g. labs/<lab>/shared/schedule.ts).",
};

const config = [
  {
    ignores: [
      'labs/generated/**',
      'node_modules/**',
      '.next/**',
      '.build/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
      'e2e/.artifacts/**',
    ],
  },
  ...next,
  {
    files: ['lib/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}', 'labs/views.ts', 'labs/schemas.ts', 'labs/lessons.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_SIDE] }] },
  },
  {
    files: ['labs/*/shared/**/*.{ts,tsx}', 'labs/*/view/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_SIDE, OTHER_LAB] }] },
  },
  {
    files: ['server/child/**/*.ts'],
    // protocol.ts is the parent's validator of child messages; the child imports only its types.
    ignores: ['**/*.test.ts', 'server/child/protocol.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [], patterns: [ZOD, PAGE_SIDE] }] },
  },
  {
    // A run's child opens its database from here (source.ts, postgres.ts); ready.ts is the parent's, which no child imports.
    files: ['server/db/**/*.ts'],
    ignores: ['**/*.test.ts', 'server/db/ready.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [], patterns: [ZOD, PAGE_SIDE] }], 'max-lines-per-function': ['error', { max: 60 }] },
  },
  {
    files: ['labs/*/child/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [], patterns: [ZOD, PAGE_SIDE, OTHER_LAB] }] },
  },
  {
    files: ['labs/*/parent/**/*.ts', 'labs/*/scripts/**/*.{ts,mjs}'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [OTHER_LAB] }] },
  },
  {
    // The runner and the queue stay readable in pieces: a run's lifecycle is in lifecycle.ts, not in one long function.
    files: ['server/runner/**/*.ts', 'server/queue/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60 }] },
  },
];

export default config;
