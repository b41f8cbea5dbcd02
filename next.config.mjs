/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Separate build folders let a dev server and an e2e build coexist in one checkout.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // The npm package (scripts/pack-build.mjs) serves a standalone build: the server and only
  // the files it needs, traced from this folder. Other builds (demo, e2e, CI) stay as they were.
  ...(process.env.POTATOQ_CONSOLE_STANDALONE === '1' ? { output: 'standalone', outputFileTracingRoot: import.meta.dirname } : {}),
  // Native drivers (and the limiter that drives them) stay on the server, loaded from
  // node_modules at run time.
  serverExternalPackages: ['better-sqlite3', 'rate-limiter-flexible'],
  // The enqueue form may carry up to the API's 2 MB; Next's default for actions is 1 MB.
  // Next holds a copy of every request body for proxy.ts while it streams in, by default up to
  // 10 MB each: bound it to the API's 2 MB plus slack for one socket chunk, so a larger body
  // still reaches the route long enough to be answered 413 (lib/actions/http.ts).
  experimental: { serverActions: { bodySizeLimit: '2mb' }, proxyClientMaxBodySize: 2 * 1024 * 1024 + 128 * 1024 },
  // The console shows no optimised images: /_next/image (which fetches app URLs itself, outside
  // proxy.ts's matcher) answers 404 instead of running.
  images: { unoptimized: true },
  // Headers for everything, static files included; proxy.ts adds the per-request CSP.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'same-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
        ],
      },
    ];
  },
};

export default nextConfig;
