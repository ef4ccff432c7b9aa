import type { Kit } from "../context.js";

export async function serveMcpOverStdio(_kit: Kit) {}
