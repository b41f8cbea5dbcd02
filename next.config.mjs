/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Separate build folders let a dev server and an e2e build coexist in one checkout.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Native drivers stay on the server and are loaded from node_modules at run time.
  serverExternalPackages: ['better-sqlite3'],
  // The enqueue form may carry up to the API's 2 MB; Next's default for actions is 1 MB.
  experimental: { serverActions: { bodySizeLimit: '2mb' } },
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
