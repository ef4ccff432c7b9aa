// The HTTP server of `npm start` (and `npm run dev`): Next.js behind a plain Node server, so each
// request carries the client address resolved from the socket (lib/net/client-address.ts), which
// App Router handlers cannot see. Listens on HOST:PORT.
import path from "node:path";
import next from "next";
import { config } from "../lib/config";
import { collectRequestFaults } from "../lib/http/request-faults";
import { stampClientAddress } from "../lib/net/client-address";
import { inIncomingRequestSpan } from "../lib/telemetry/spans";
import { createAppServer } from "./app-server";

const dev = process.argv.includes("--dev");
const { host, port, trustedProxies } = config();
// Turbopack in development, as `next dev` uses; production serves the existing build.
const root = path.resolve(import.meta.dirname, "..");
const app = next({ dev, turbopack: dev, dir: root, hostname: host, port });
const handle = app.getRequestHandler();
await app.prepare();
// Loaded after app.prepare(), whose instrumentation hook starts tracing: the database client loads
// pg, which tracing must patch first. Loaded now, not at shutdown: a stop sent to the whole process
// group (Ctrl-C, systemd) also stops tsx's esbuild service, and TypeScript first loaded after
// that fails to compile.
const [{ stopBackgroundJobs }, { disconnectDb }] = await Promise.all([
  import("../lib/tasks/start-background-jobs"),
  import("../lib/db/client"),
]);

/** Past this, shutdown gives up waiting (an attempt's timeout is 10 s by default). */
const shutdownGraceMs = config().webhooks.timeoutMs + 10_000;
/** A stop signal this soon after the first is the same stop delivered again. */
const repeatedSignalMs = 1_000;
/** When the first stop signal came; undefined while serving. */
let stoppingSince: number | undefined;

const server = createAppServer({
  root,
  isStopping: () => stoppingSince !== undefined,
  handle: (request, response) => {
    stampClientAddress(request, trustedProxies);
    void collectRequestFaults(() =>
      inIncomingRequestSpan(request, response, () => handle(request, response)),
    );
  },
});
// Idle keep-alive connections stay open longer than the clients and load balancers in front keep
// theirs (60 s is a common idle timeout): with Node's 5 s, a client reusing a connection just as
// the server closed it got a reset instead of an answer (seen from Playwright's request context).
server.keepAliveTimeout = 65_000;
server.listen(port, host, () => console.log(`Listening on http://${host}:${port}`));

/**
 * SIGTERM/SIGINT: stop taking connections, let requests under way finish, stop the job engine
 * (attempts under way finish and are recorded, unstarted claims and leases go back), then close
 * Next.js and the database pool. Asked again, or with the grace period run out, it exits at once.
 */
async function shutdown(signal: string) {
  if (stoppingSince !== undefined) {
    // One stop often arrives more than once: sent to the whole process group (Ctrl-C, systemd),
    // then forwarded again by `npm start`. Only a signal well after the first is someone insisting.
    if (Date.now() - stoppingSince > repeatedSignalMs) process.exit(1);
    return;
  }
  stoppingSince = Date.now();
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
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () =>
    // A step that fails would otherwise leave the process waiting out the grace period.
    shutdown(signal).catch((error: unknown) => {
      console.error("shutdown failed:", error);
      process.exit(1);
    }),
  );
}
