// Serves fresh copies of a migrated embedded database to the integration test files, one per file,
// from a long-lived process (started by database-global-setup.ts, one per Vitest worker).
// Starting the embedded database inside each file's fresh worker process cost about 2 CPU-seconds
// a file (the WebAssembly and its filesystem warmed up again every time, the snapshot unpacked
// file by file); here the code stays warm and a copy is a directory copy.
//
//   node --import tsx scripts/test-support/embedded-database-farm.ts <migrated data directory>
//
// prints {"port":N} once it listens on 127.0.0.1:N; POST / answers {"id","url"} of a new
// database, DELETE /<id> stops and removes it. It exits when its parent closes its stdin.
import { cpSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../../lib/db/embedded-postgres";

const template = process.argv[2];
if (!template) throw new Error("usage: embedded-database-farm.ts <migrated data directory>");

const databases = new Map<string, { db: EmbeddedPostgres; dir: string }>();

async function create() {
  const dir = await mkdtemp(`${template}-copy-`);
  // The synchronous copy runs in native code: fs.promises.cp spent ten times its CPU here.
  cpSync(template, dir, { recursive: true });
  const db = await startEmbeddedPostgres({ dataDir: dir });
  const id = path.basename(dir);
  databases.set(id, { db, dir });
  return { id, url: db.url };
}

const stopWaitMs = 10_000;
const timeUp = () => new Promise<"time up">((resolve) => setTimeout(resolve, stopWaitMs, "time up").unref());

async function remove(id: string) {
  const entry = databases.get(id);
  if (!entry) return false;
  databases.delete(id);
  // A connection its file left inside a transaction can keep the instance from closing: it is
  // then left behind (the run's directory goes at the end) rather than holding up the next file.
  if ((await Promise.race([entry.db.stop(), timeUp()])) === "time up") {
    process.stderr.write(`embedded database farm: ${id} did not stop within ${stopWaitMs} ms; left behind\n`);
    return true;
  }
  await rm(entry.dir, { recursive: true, force: true });
  return true;
}

const server = http.createServer((request, response) => {
  const answer = (status: number, body?: unknown) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const work =
    request.method === "POST" && request.url === "/"
      ? create().then((created) => answer(201, created))
      : request.method === "DELETE"
        ? remove((request.url ?? "").slice(1)).then((found) => answer(found ? 204 : 404))
        : Promise.resolve(answer(405));
  work.catch((error: unknown) => answer(500, { error: String(error) }));
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address?.port })}\n`);
});

async function shutdown() {
  server.close();
  await Promise.all([...databases.keys()].map(remove));
  process.exit(0);
}
// An instance left behind may still fail in the background: that is its file's business, and
// this process goes on serving the others.
process.on("unhandledRejection", (error) => {
  process.stderr.write(`embedded database farm: ${String(error)}\n`);
});
process.stdin.on("end", shutdown);
process.stdin.resume();
process.on("SIGTERM", shutdown);
