import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { connect } from "node:net";
import path from "node:path";
import { serverPids } from "../scripts/test-support/server-pids";
import { createOrganizationOn, expect } from "./fixtures";

// Extra app instances for tests that kill, stop or multiply the app (the shared one must not be
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
    // tsx as a loader, not its CLI: the exit code is e2e-server's own (npm start's, its server's).
    ["--import", "tsx", "scripts/e2e-server.ts"],
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
 * graceful shutdown), SIGKILL to what is left after `graceMs`. Settles when the group is gone:
 * true if the SIGTERM alone took all of it down.
 */
export async function stopApp(child: ChildProcess, graceMs = 30_000): Promise<boolean> {
  killGroup(child, "SIGTERM");
  for (const deadline = Date.now() + graceMs; groupAlive(child) && Date.now() < deadline; )
    await new Promise((resolve) => setTimeout(resolve, 100));
  const graceful = !groupAlive(child);
  killGroup(child, "SIGKILL");
  while (groupAlive(child)) await new Promise((resolve) => setTimeout(resolve, 100));
  return graceful;
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

/** SIGKILLs the Next.js server listening on `port`: no shutdown hooks, in-flight work cut off. */
export function killServer(port: number) {
  for (const pid of serverPids(port)) process.kill(pid, "SIGKILL");
}

/** The established connections of processes `pids` that `filter` (an ss filter) selects. */
function connectionsOf(pids: number[], filter: string): { localPort: number; peerPort: number }[] {
  return execFileSync("ss", ["-tnpH", "state", "established", filter])
    .toString()
    .split("\n")
    .filter((line) => pids.some((pid) => line.includes(`pid=${pid},`)))
    .map((line) => {
      const [, local, peer] = /:(\d+)\s+\S+:(\d+)\s/.exec(line) ?? [];
      return { localPort: Number(local), peerPort: Number(peer) };
    });
}

/** The local ports of the connections that processes `pids` hold open to `remotePort`. */
export function clientPortsOf(pids: number[], remotePort: number): Set<number> {
  return new Set(connectionsOf(pids, `( dport = :${remotePort} )`).map(({ localPort }) => localPort));
}

/** The client ports of the connections that server processes `pids` have accepted on `port`. */
export function acceptedClientPorts(pids: number[], port: number): Set<number> {
  return new Set(connectionsOf(pids, `( sport = :${port} )`).map(({ peerPort }) => peerPort));
}

/** Whether anything on 127.0.0.1 takes connections on `port`. */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * A merchant on the app on `port` with a webhook endpoint at `receiverUrl`, and `count` test
 * events sent to it one after another: returns their ids, in order.
 */
export async function sendTestEvents(port: number, receiverUrl: string, count: number, name: string) {
  const { apiKey, organizationId } = await createOrganizationOn(
    port,
    name,
    `${name.toLowerCase().replaceAll(" ", "-")}@example.com`,
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const endpoint = await (
    await fetch(`${baseUrl}/api/private/organization/webhook-endpoints`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name, url: receiverUrl, adapter: "NONE", enabled: true }),
    })
  ).json();
  const sent: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(
      `${baseUrl}/api/private/organization/webhook-endpoints/${endpoint.data.id}/test`,
      { method: "POST", headers },
    );
    const body = await response.json();
    expect(body.success, JSON.stringify(body)).toBe(true);
    sent.push(body.data.eventId);
  }
  return { apiKey, organizationId, endpointId: endpoint.data.id as string, sent };
}
