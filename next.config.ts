import { readFileSync } from "node:fs";
import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

// The app compiles the agent kit from its TypeScript sources: each export of packages/agent that
// has a "crypto-checkout-source" target resolves to it (Turbopack takes no custom export
// conditions), while published installs of the kit get dist/.
const kitExports: Record<string, string | Record<string, string>> = JSON.parse(
  readFileSync("packages/agent/package.json", "utf8"),
).exports;
const kitSources = Object.fromEntries(
  Object.entries(kitExports).flatMap(([subpath, target]) =>
    typeof target === "object" && target["crypto-checkout-source"]
      ? [
          [
            `crypto-checkout-agent${subpath.slice(1)}`,
            `./packages/agent/${target["crypto-checkout-source"].slice(2)}`,
          ],
        ]
      : [],
  ),
);

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Server-only packages with native/WASM parts or worker threads stay outside the bundle.
  serverExternalPackages: [
    "pino",
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "@prisma/schema-engine-wasm",
    // Instrumentation patches modules as Node loads them, so it and what it patches load unbundled.
    // One copy of the API for the SDK, our spans and Next.js: start-tracing.ts takes the SDK's
    // provider off the global API, and a bundled copy would keep its own handle on it.
    "@opentelemetry/api",
    "@opentelemetry/sdk-node",
    "@opentelemetry/instrumentation-http",
    "@opentelemetry/instrumentation-undici",
    "@opentelemetry/instrumentation-pg",
    "pg",
    "prom-client",
  ],
  // npm test typechecks with tsc after the build and sets this, so the sources are checked once.
  typescript: {
    tsconfigPath: "tsconfig.json",
    ignoreBuildErrors: process.env.NEXT_BUILD_SKIP_TYPECHECK === "1",
  },
  turbopack: { resolveAlias: kitSources },
  // A CI run builds once from a clean clone: writing Turbopack's cache for a next build that never
  // comes only delays the end-to-end suite waiting on this one.
  experimental: { turbopackFileSystemCacheForBuild: !process.env.CI },
  // A paylink's pay address opens a session (app/pay/[id]/start/route.ts), which a page cannot
  // refuse with a 429; sessions (ycs_…) keep the hosted page.
  rewrites: async () => ({
    beforeFiles: [
      {
        source: "/pay/:id([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})",
        destination: "/pay/:id/start",
      },
    ],
    afterFiles: [],
    fallback: [],
  }),
};

// The hosted checkout page's language and messages, per request (lib/i18n/request.ts).
export default createNextIntlPlugin("./lib/i18n/request.ts")(nextConfig);
