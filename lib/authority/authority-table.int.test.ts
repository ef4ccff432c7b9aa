import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { toolsFor } from "crypto-checkout-agent/catalog";
import { contracts } from "crypto-checkout-agent/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE, GET, POST } from "@/app/mcp/route";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { appRoutes, matchRoute } from "@/scripts/test-support/app-routes";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestAgentCredential, createTestOrganization } from "@/scripts/test-support/fixtures";
import { oauthAccessToken } from "@/scripts/test-support/oauth";
import { serveRoute } from "@/scripts/test-support/serve-route";
import { operations, type Requirement } from "./operations";

// Walks every door of the authority table with every kind of caller and checks that the door
// answers what the table's row says. The expectation is written out here from the rule (read-only
// callers may only read; members may not do what owners may; dashboard-only stays there), not
// computed with lib/authority/authorize.ts, so a mistake there shows up.

const root = path.resolve(import.meta.dirname, "../..");
const rows = Object.entries(operations) as [keyof typeof operations, Requirement & Record<string, unknown>][];

type Caller = { name: string; authorization: string; access: "read" | "write"; role: "owner" | "member" };
type Expected = "allowed" | "insufficient_access" | "insufficient_scope" | "owner_only" | "dashboard_only";

function expected(requirement: Requirement, caller: Caller, oauth: boolean): Expected {
  if (requirement.sessionOnly) return "dashboard_only";
  if (requirement.access === "write" && caller.access === "read") {
    return oauth ? "insufficient_scope" : "insufficient_access";
  }
  if (requirement.role === "owner" && caller.role === "member") return "owner_only";
  return "allowed";
}

const refusalCodes = new Set(["insufficient_access", "insufficient_scope", "owner_only", "dashboard_only"]);

let organizationId: string;
const restCallers: Caller[] = [];
const mcpCallers: (Caller & { oauth: boolean })[] = [];
let server: Awaited<ReturnType<typeof serveRoute>>;

beforeAll(async () => {
  const { organization, auth } = await createTestOrganization("Walk Store");
  organizationId = organization.id;
  const owner = await db().membership.findFirstOrThrow({ where: { organizationId, role: "OWNER" } });
  const memberUser = await db().user.create({
    data: { id: newId("user"), email: `member-${Date.now()}@example.com` },
  });
  await db().membership.create({
    data: { id: newId("membership"), organizationId, userId: memberUser.id, role: "MEMBER" },
  });
  const writer = await createTestAgentCredential(organizationId, "write");
  const reader = await createTestAgentCredential(organizationId, "read");
  restCallers.push(
    { name: "API key", authorization: auth.authorization, access: "write", role: "owner" },
    { name: "agent (write)", authorization: writer.auth.authorization, access: "write", role: "owner" },
    { name: "agent (read)", authorization: reader.auth.authorization, access: "read", role: "owner" },
  );
  const oauthCallers = await Promise.all(
    (
      [
        ["owner", owner.userId, "read write"],
        ["owner", owner.userId, "read"],
        // A member's write grant from before only owners could grant write: it acts as a member.
        ["member", memberUser.id, "read write"],
        ["member", memberUser.id, "read"],
      ] as const
    ).map(async ([role, userId, scope]) => ({
      name: `OAuth (${role}, ${scope})`,
      authorization: await oauthAccessToken(organizationId, userId, scope),
      access: scope === "read" ? ("read" as const) : ("write" as const),
      role,
      oauth: true,
    })),
  );
  mcpCallers.push(...restCallers.map((caller) => ({ ...caller, oauth: false })), ...oauthCallers);
  server = await serveRoute({ GET, POST, DELETE }, config().baseUrl);
});

afterAll(async () => {
  await server.close();
});

const restDoors = rows.flatMap(([id, row]) =>
  ((row.rest as string[] | undefined) ?? [])
    .filter((door) => !door.includes("#"))
    .map((door) => ({ id, row, method: door.split(" ")[0], template: door.split(" ")[1] })),
);

describe("the authority table", () => {
  it("covers every credentialed REST route, and names only routes that exist", async () => {
    const routes = await appRoutes();
    const credentialed = routes
      .filter((route) => /^\/api\/(private|checkout-sessions)/.test(route.template))
      .flatMap((route) => Object.keys(route.handlers).map((method) => `${method} ${route.template}`));
    expect(restDoors.map((door) => `${door.method} ${door.template}`).sort()).toEqual(credentialed.sort());
  });

  it("covers every remote MCP tool", () => {
    const tools = toolsFor("write", "remote").map((tool) => tool.name);
    const named = rows.flatMap(([, row]) => (row.mcp as string[] | undefined) ?? []);
    expect(named.sort()).toEqual([...tools].sort());
  });

  it("covers every CLI command that acts for an organization", () => {
    const groups = path.join(root, "packages/agent/src/commands");
    const commands = [
      ...readdirSync(groups).flatMap((file) =>
        [...readFileSync(path.join(groups, file), "utf8").matchAll(/define\(\s*"([a-z:-]+)"/g)].map(
          (match) => match[1],
        ),
      ),
      // The commands derived from a contract (packages/agent/src/cli/define-command.ts).
      ...contracts.flatMap((contract) => (contract.cli ? [contract.cli.command] : [])),
    ];
    // Local or credential-less: connecting, checking a signature on this machine, the local server.
    const local = ["setup", "checkin", "webhooks:verify", "mcp"];
    const named = rows.flatMap(([, row]) => (row.cli as string[] | undefined) ?? []);
    expect([...named, ...local].sort()).toEqual([...commands].sort());
  });

  it("is what every dashboard action checks", () => {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith("actions.ts")) {
          const source = readFileSync(full, "utf8");
          for (const match of source.matchAll(/const (\w+?)(?:Action)? = memberAction\(\s*"([\w.]+)"/g)) {
            found.push(`${match[2]} ${match[1]}`);
          }
        }
      }
    };
    walk(path.join(root, "app/dashboard"));
    const named = rows.flatMap(([id, row]) =>
      ((row.dashboard as string[] | undefined) ?? []).map((a) => `${id} ${a}`),
    );
    // Every action names its row, and the row lists it; rows may list actions of other pages.
    for (const action of found) expect(named).toContain(action);
  });
});

describe("REST doors", () => {
  it.each(restDoors.map((door) => [`${door.method} ${door.template}`, door] as const))(
    "%s answers each caller as its row says",
    async (_, door) => {
      const routes = await appRoutes();
      const pathname = door.template.replace(/\{(\w+)\}/g, "unknown");
      const found = matchRoute(routes, pathname);
      const handler = found?.route.handlers[door.method as "GET"];
      expect(handler).toBeDefined();
      for (const caller of restCallers) {
        const response = await callRoute(handler as NonNullable<typeof handler>, pathname, {
          method: door.method,
          headers: { authorization: caller.authorization },
          params: found?.params,
          body: door.method === "GET" || door.method === "DELETE" ? undefined : {},
        });
        const want = expected(door.row, caller, false);
        const code = response.json?.error?.code;
        if (want === "dashboard_only") {
          // A door of the signed-in dashboard: a credential is no session there.
          expect({ caller: caller.name, refused: [401, 403].includes(response.status) }).toEqual({
            caller: caller.name,
            refused: true,
          });
        } else if (want === "allowed") {
          expect({ caller: caller.name, refused: refusalCodes.has(code) }).toEqual({
            caller: caller.name,
            refused: false,
          });
        } else {
          expect({ caller: caller.name, status: response.status, code }).toEqual({
            caller: caller.name,
            status: 403,
            code: want,
          });
        }
      }
    },
  );
});

async function rpc(authorization: string, method: string, params: Record<string, unknown> = {}) {
  const response = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      authorization,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

describe("MCP doors", () => {
  const tools = toolsFor("write", "remote");

  it("lists to each caller exactly the tools its rows allow", async () => {
    for (const caller of mcpCallers) {
      const { json } = await rpc(caller.authorization, "tools/list");
      const allowed = tools
        .filter((tool) => {
          const row = rows.find(([, r]) => ((r.mcp as string[] | undefined) ?? []).includes(tool.name))?.[1];
          return row && expected(row, caller, caller.oauth) === "allowed";
        })
        .map((tool) => tool.name);
      expect({
        caller: caller.name,
        tools: json.result.tools.map((t: { name: string }) => t.name).sort(),
      }).toEqual({
        caller: caller.name,
        tools: allowed.sort(),
      });
    }
  });

  it.each(tools.map((tool) => [tool.name] as const))(
    "%s answers each caller as its row says",
    async (name) => {
      const row = rows.find(([, r]) =>
        ((r.mcp as string[] | undefined) ?? []).includes(name),
      )?.[1] as Requirement;
      for (const caller of mcpCallers) {
        const want = expected(row, caller, caller.oauth);
        const answer = await rpc(caller.authorization, "tools/call", { name, arguments: {} });
        if (want === "insufficient_access" || want === "insufficient_scope") {
          // Refused before the MCP server runs, so clients can step up (MCP authorization).
          expect({ caller: caller.name, status: answer.status, code: answer.json.error?.code }).toEqual({
            caller: caller.name,
            status: 403,
            code: "insufficient_scope",
          });
          expect(answer.headers.get("www-authenticate")).toBe(
            'Bearer error="insufficient_scope", scope="read write"',
          );
          continue;
        }
        expect(answer.status).toBe(200);
        const result = answer.json.result as { isError?: boolean; content: { text: string }[] };
        const code = (result.isError && /^(\w+):/.exec(result.content[0].text)?.[1]) || "";
        expect({ caller: caller.name, code: refusalCodes.has(code) ? code : "allowed" }).toEqual({
          caller: caller.name,
          code: want,
        });
      }
    },
  );
});
