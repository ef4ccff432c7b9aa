import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// The zero-setup database: PGlite (PostgreSQL compiled to WASM) served over the PostgreSQL wire
// protocol on loopback, so the app talks to it through the same pg adapter as to a real server.

export type EmbeddedPostgres = {
  url: string;
  /** The whole data directory as an uncompressed tarball, for startEmbeddedPostgres({ snapshot }). */
  snapshot: () => Promise<Blob>;
  stop: () => Promise<void>;
};

export async function startEmbeddedPostgres(options: {
  /** Directory to keep data in; in memory when omitted. */
  dataDir?: string;
  /** A migrated snapshot (from dumpEmbeddedPostgres) to start from. */
  snapshot?: Blob;
  port?: number;
}): Promise<EmbeddedPostgres> {
  const pglite = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.snapshot });
  const server = new PGLiteSocketServer({
    db: pglite,
    host: "127.0.0.1",
    port: options.port ?? 0,
    // PGlite runs one query at a time; the server queues them and keeps transactions together.
    maxConnections: 64,
  });
  await server.start();
  const address = (server as unknown as { server: import("node:net").Server }).server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    snapshot: () => pglite.dumpDataDir("none"),
    stop: async () => {
      await server.stop();
      await pglite.close();
    },
  };
}
