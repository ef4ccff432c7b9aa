// The HTTP server of `npm start` (and `npm run dev`): Next.js behind a plain Node server, so each
// request carries the client address resolved from the socket (lib/net/client-address.ts), which
// App Router handlers cannot see. Listens on HOST:PORT.
import { createServer } from "node:http";
import path from "node:path";
import next from "next";
import { config } from "../lib/config";
import { disconnectDb } from "../lib/db/client";
import { stampClientAddress } from "../lib/net/client-address";
import { stopBackgroundJobs } from "../lib/tasks/start-background-jobs";

const dev = process.argv.includes("--dev");
const { host, port, trustedProxies } = config();
// Turbopack in development, as `next dev` uses; production serves the existing build.
const app = next({ dev, turbopack: dev, dir: path.resolve(import.meta.dirname, ".."), hostname: host, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((request, response) => {
  stampClientAddress(request, trustedProxies);
  void handle(request, response);
});
server.listen(port, host, () => console.log(`Listening on http://${host}:${port}`));

/** Past this, shutdown gives up waiting (an attempt's timeout is 10 s by default). */
const shutdownGraceMs = config().webhooks.timeoutMs + 10_000;
let stopping = false;

/**
 * SIGTERM/SIGINT: stop taking connections, let requests under way finish, stop the job engine
 * (attempts under way finish and are recorded, unstarted claims and leases go back), then close
 * Next.js and the database pool. A second signal, or the grace period running out, exits at once.
 */
async function shutdown(signal: string) {
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`${signal}: shutting down`);
  setTimeout(() => {
    console.error("shutdown took too long; exiting");
    process.exit(1);
  }, shutdownGraceMs).unref();
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  await stopBackgroundJobs();
  await closed;
  await app.close();
  await disconnectDb();
  process.exit(0);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void shutdown(signal));
