import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Kit } from "../context";
import { buildLocalServer } from "./local-server";

/** Serves MCP on stdin/stdout until the client closes the pipe; stdout carries only protocol messages. */
export async function serveMcpOverStdio(kit: Kit) {
  const server = await buildLocalServer(kit);
  await server.connect(new StdioServerTransport());
}
