import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import path from "node:path";

// Extra app instances for tests that kill or multiply the app (the shared one must not be
// killed): each is scripts/e2e-server.ts on a port of its own.

const root = path.resolve(import.meta.dirname, "..");

/**
 * Starts the app on `port`: a fresh database, or with `restart` the same one again (as after a
 * crash), or with `join` the database of the instance on that port (a second instance).
 */
export function startApp(
  port: number,
  options: { restart?: boolean; join?: number; env?: Record<string, string> } = {},
): ChildProcess {
  return spawn(
    process.execPath,
    [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/e2e-server.ts"],
    {
      cwd: root,
      env: {
        ...process.env,
        ...options.env,
        E2E_PORT: String(port),
        E2E_RESTART: options.restart ? "1" : "0",
        ...(options.join ? { E2E_JOIN: String(options.join) } : {}),
      },
      stdio: "ignore",
    },
  );
}

export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, what = "") {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting${what ? ` for ${what}` : ""}`);
}

export const healthy = (port: number) => async () =>
  fetch(`http://127.0.0.1:${port}/api/health`).then(
    (response) => response.ok,
    () => false,
  );

/** The processes of the Next.js server listening on `port`. */
export function serverPids(port: number): number[] {
  return execFileSync("fuser", [`${port}/tcp`], { stdio: ["ignore", "pipe", "ignore"] })
    .toString()
    .trim()
    .split(/\s+/)
    .map(Number);
}

/** SIGKILLs the Next.js server listening on `port`: no shutdown hooks, in-flight work cut off. */
export function killServer(port: number) {
  for (const pid of serverPids(port)) process.kill(pid, "SIGKILL");
}

/** The local ports of the connections that processes `pids` hold open to `remotePort`. */
export function clientPortsOf(pids: number[], remotePort: number): Set<number> {
  const lines = execFileSync("ss", ["-tnpH", "state", "established", `( dport = :${remotePort} )`])
    .toString()
    .split("\n");
  return new Set(
    lines
      .filter((line) => pids.some((pid) => line.includes(`pid=${pid},`)))
      .map((line) => Number(/:(\d+)\s+\S+:\d+\s/.exec(line)?.[1])),
  );
}
