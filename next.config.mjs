/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Separate build folders let a dev server and an e2e build coexist in one checkout.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Native drivers stay on the server and are loaded from node_modules at run time.
  serverExternalPackages: ['better-sqlite3'],
};

export default nextConfig;
