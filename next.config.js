/** @type {import('next').NextConfig} */
const nextConfig = {
  // The custom server (server/index.ts) owns the port; Next only renders pages.
  // Type errors are caught by `npm run typecheck`, which runs before the build in `npm test`.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
