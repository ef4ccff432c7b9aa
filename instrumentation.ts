// Next.js calls register() once when a server instance starts. With the default in-process job
// engine, that instance also runs the background work; with SERVICE_JOB_ENGINE=inngest an
// Inngest server drives the same domain functions through /api/inngest instead.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { config } = await import("./lib/config");
  if (config().jobEngine !== "in-process") return;
  const { startBackgroundJobs } = await import("./lib/tasks/start-background-jobs");
  startBackgroundJobs();
}
