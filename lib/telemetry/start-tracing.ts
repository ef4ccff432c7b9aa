import type { SpanProcessor } from "@opentelemetry/sdk-trace";

/**
 * Tracing is off unless the standard OpenTelemetry variables ask for it: an OTLP endpoint, or
 * OTEL_TRACES_EXPORTER naming an exporter. OTEL_SDK_DISABLED=true turns it off regardless.
 */
export function tracingRequested(env: Record<string, string | undefined> = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === "true") return false;
  const exporter = env.OTEL_TRACES_EXPORTER;
  if (exporter) return exporter !== "none";
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts the OpenTelemetry Node SDK with spans for incoming and outgoing HTTP (node:http, undici
 * and fetch) and for PostgreSQL (pg, under Prisma's driver adapter). The exporter, sampler,
 * service name and resource come from the standard OTEL_* variables; `spanProcessors` replaces
 * the exporter (tests collect spans in memory). Returns a function that flushes and stops it.
 */
export async function startTracing(options: { spanProcessors?: SpanProcessor[] } = {}) {
  const [{ NodeSDK }, { HttpInstrumentation }, { UndiciInstrumentation }, { PgInstrumentation }] =
    await Promise.all([
      import("@opentelemetry/sdk-node"),
      import("@opentelemetry/instrumentation-http"),
      import("@opentelemetry/instrumentation-undici"),
      import("@opentelemetry/instrumentation-pg"),
    ]);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? "crypto-checkout",
    spanProcessors: options.spanProcessors,
    instrumentations: [
      new HttpInstrumentation(),
      new UndiciInstrumentation(),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  return () => sdk.shutdown();
}
