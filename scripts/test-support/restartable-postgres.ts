import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startEmbeddedPostgres } from "../../lib/db/embedded-postgres";
import { freePort } from "./free-port";

// A PostgreSQL server of a test's own that it can stop and start again on the same port and data,
// as an operator restarts one under traffic: Debian's server binaries (initdb, pg_ctl) on a
// temporary directory, or the embedded server (PGlite) the zero-setup start uses.

const run = promisify(execFile);

export type RestartablePostgres = {
  /** The server's `postgres` database; name another with databaseUrlWithName. */
  url: string;
  kind: "server" | "embedded";
  /** Stops the server: a fast shutdown, which ends every open connection (57P01). */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** Stops it for good and removes its data. */
  close: () => Promise<void>;
};

/** The newest Debian PostgreSQL's binaries, if installed. */
function serverBinaries(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((version) => existsSync(path.join(base, version, "bin/pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(base, versions[0], "bin");
}

export async function startRestartablePostgres(kind: "server" | "embedded"): Promise<RestartablePostgres> {
  const port = await freePort();
  const directory = await mkdtemp(path.join(os.tmpdir(), "cc-restartable-pg-"));
  if (kind === "embedded") {
    const dataDir = path.join(directory, "data");
    let embedded = await startEmbeddedPostgres({ dataDir, port });
    let running = true;
    return {
      url: embedded.url,
      kind,
      stop: async () => {
        running = false;
        await embedded.stop();
      },
      start: async () => {
        embedded = await startEmbeddedPostgres({ dataDir, port });
        running = true;
      },
      close: async () => {
        if (running) await embedded.stop();
        await rm(directory, { recursive: true, force: true });
      },
    };
  }

  const bin = serverBinaries();
  if (!bin) throw new Error("PostgreSQL's server binaries were not found under /usr/lib/postgresql");
  // The server refuses to run as root: there it runs as the `postgres` user Debian's package adds.
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? (await run("id", ["-u", "postgres"])).stdout.trim() : undefined;
  if (owner) await chown(directory, Number(owner), Number(owner));
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args])
      : run(path.join(bin, tool), args);
  const dataDir = path.join(directory, "data");
  await pg("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = async () => {
    await pg("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(directory, "log"), "-w", "start"]);
  };
  const stop = async () => {
    await pg("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
  };
  await start();
  let running = true;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    kind,
    stop: async () => {
      running = false;
      await stop();
    },
    start: async () => {
      await start();
      running = true;
    },
    close: async () => {
      if (running) await stop().catch(() => {});
      await rm(directory, { recursive: true, force: true });
    },
  };
}
