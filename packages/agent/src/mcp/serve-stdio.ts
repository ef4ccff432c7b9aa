import type { Kit } from "../context";

export async function serveMcpOverStdio(_kit: Kit) {}
