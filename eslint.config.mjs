import next from 'eslint-config-next';

const config = [
  { ignores: ['node_modules/**', '.next/**', '.build/**', 'data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'] },
  ...next,
];

export default config;
