import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Server-only packages with native/WASM parts or worker threads stay outside the bundle.
  serverExternalPackages: [
    "pino",
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "@prisma/schema-engine-wasm",
  ],
  typescript: { tsconfigPath: "tsconfig.json" },
};

export default nextConfig;
