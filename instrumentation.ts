// Next.js calls register() once when a server instance starts. Tracing starts first when the
// OTEL_* variables ask for it, so the modules it instruments (http, undici, pg) are patched before
// anything loads them. With the default in-process job engine, this instance also runs the
// background work; with SERVICE_JOB_ENGINE=inngest an Inngest server drives the same domain
// functions through /api/inngest instead.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startTracing, tracingRequested } = await import("./lib/telemetry/start-tracing");
  if (tracingRequested()) await startTracing();
  const { config } = await import("./lib/config");
  if (config().jobEngine !== "in-process") return;
  const { startBackgroundJobs } = await import("./lib/tasks/start-background-jobs");
  startBackgroundJobs();
}

/**
 * Next.js reports here an error a page or route could not handle: one caused by a lost database
 * makes the server answer 503 instead of 500 (lib/http/request-faults.ts).
 */
export async function onRequestError(error: unknown) {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { reportRequestError } = await import("./lib/http/request-faults");
  reportRequestError(error);
}
