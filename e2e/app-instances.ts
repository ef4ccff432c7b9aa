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
  const child = spawn(
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
      // A process group of its own: the app's server and devnet go down with it (stopApp).
      detached: true,
    },
  );
  started.add(child);
  child.once("exit", () => started.delete(child));
  return child;
}

const started = new Set<ChildProcess>();
// A worker that ends without its finally blocks (a timeout) still takes every app down with it.
process.once("exit", () => {
  for (const child of started) killGroup(child, "SIGKILL");
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-(child.pid as number), signal);
  } catch {
    // the group is gone
  }
}

/** Whether any process of the app's group is still alive. */
function groupAlive(child: ChildProcess) {
  try {
    process.kill(-(child.pid as number), 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops an app started by startApp and everything it started: SIGTERM to its process group (a
 * graceful shutdown), SIGKILL to what is left after `graceMs`. Settles when the group is gone.
 */
export async function stopApp(child: ChildProcess, graceMs = 30_000) {
  killGroup(child, "SIGTERM");
  for (const deadline = Date.now() + graceMs; groupAlive(child) && Date.now() < deadline; )
    await new Promise((resolve) => setTimeout(resolve, 100));
  killGroup(child, "SIGKILL");
  while (groupAlive(child)) await new Promise((resolve) => setTimeout(resolve, 100));
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
