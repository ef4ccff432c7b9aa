import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

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
  typescript: { tsconfigPath: "tsconfig.json" },
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
