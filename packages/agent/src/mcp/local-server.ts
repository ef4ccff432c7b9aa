import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { serverInstructions, toolsFor } from "../catalog";
import { registerKnowledge } from "../catalog/knowledge";
import { serviceBaseUrl } from "../config/base-url";
import type { Kit } from "../context";
import { exitCodes, KitError, toKitError } from "../http/errors";
import { callLocalTool } from "./local-tools";
import { serveTools } from "./serve-tools";

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** Signs confirmation tokens; per process, so a token never outlives the server that issued it. */
const confirmationKey = randomBytes(32);

/** Whom this process's confirmation tokens are issued to: the stored credential, else the API key. */
async function subject(kit: Kit) {
  const config = await kit.readConfig();
  return config.credential?.apiBaseUrl === kit.settings.apiBaseUrl
    ? config.credential.credentialId
    : "api_key";
}

/** What a read-only credential gets from a tool that changes things, as the service would answer. */
const readOnly = () =>
  new KitError(
    {
      error: {
        type: "permission_error",
        code: "insufficient_access",
        message: "The stored credential may only read; this tool changes things.",
      },
    },
    exitCodes.auth,
    403,
  );

/**
 * `crypto-checkout mcp`: the catalogue's tools, resources and prompts, as the remote /mcp serves
 * them, for the access of the stored credential (an API key may write), plus the local helpers.
 */
export async function buildLocalServer(kit: Kit): Promise<McpServer> {
  const server = new McpServer({ name: "crypto-checkout", version }, { instructions: serverInstructions });
  const stored = (await kit.readConfig()).credential;
  const access = stored?.apiBaseUrl === kit.settings.apiBaseUrl ? stored.access : "write";
  // The service's own URL for the guides.
  const baseUrl = serviceBaseUrl(kit.settings.apiBaseUrl);

  const askUser = async (message: string) => {
    if (!server.server.getClientCapabilities()?.elicitation) return null;
    const answer = await server.server.elicitInput({
      message,
      requestedSchema: {
        type: "object",
        properties: { confirm: { type: "boolean", title: "Go ahead?" } },
        required: ["confirm"],
      },
    });
    return answer.action === "accept" && answer.content?.confirm === true;
  };

  // The same serving layer as the remote server's, so both list the very same schemas and answer
  // bad arguments, refusals and confirmations with the same error results.
  serveTools(server.server, {
    tools: toolsFor("write", "local"),
    authorize: (tool) => {
      if (tool.access === "write" && access === "read") throw readOnly();
    },
    run: ({ tool, input, confirm }) => callLocalTool(tool, input, { kit, askUser, confirm }),
    envelopeOf: (error) => toKitError(error).envelope,
    confirmation: { key: () => confirmationKey, subject: () => subject(kit), askUser },
  });

  registerKnowledge(server, { baseUrl });
  return server;
}
