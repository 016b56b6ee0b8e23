/** @type {import('next').NextConfig} */
const nextConfig = {
  // The custom server (server/index.ts) owns the port; Next only renders pages.
  // Type errors are caught by `npm run typecheck`, which runs before the build in `npm test`.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  reactStrictMode: true,
  // For profiling the page (`BENCH_PROFILE=1 npm run bench:ui` names functions and files with them).
  productionBrowserSourceMaps: process.env.STREAM_LAB_SOURCE_MAPS === '1',
};

export default nextConfig;
