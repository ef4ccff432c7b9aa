import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// The zero-setup database: PGlite (PostgreSQL compiled to WASM) served over the PostgreSQL wire
// protocol on loopback, so the app talks to it through the same pg adapter as to a real server.

export type EmbeddedPostgres = {
  url: string;
  stop: () => Promise<void>;
};

export async function startEmbeddedPostgres(options: {
  /** Directory to keep data in; in memory when omitted. */
  dataDir?: string;
  port?: number;
}): Promise<EmbeddedPostgres> {
  const pglite = await PGlite.create({ dataDir: options.dataDir });
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
    stop: async () => {
      await server.stop();
      await pglite.close();
    },
  };
}
